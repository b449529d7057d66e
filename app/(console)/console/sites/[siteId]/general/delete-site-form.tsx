'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { deleteSiteAction } from '@/app/(console)/_lib/site-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

/** The typed confirmation: the button deletes only when the site's name was typed exactly. */
export function DeleteSiteForm({ siteId, name }: { siteId: string; name: string }) {
  const [state, action] = useActionState(forSite(deleteSiteAction, siteId), {} as FormState);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="confirm"
        label={`Type the site's name, “${name}”, to confirm`}
        type="text"
        autoComplete="off"
        autoCapitalize="none"
        spellCheck={false}
        required
        defaultValue={state.values?.confirm}
        error={state.errors?.confirm}
      />
      <SubmitButton pending="Deleting…" className="button danger">
        Delete this site
      </SubmitButton>
    </form>
  );
}
