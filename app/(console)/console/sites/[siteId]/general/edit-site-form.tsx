'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import { updateSiteAction } from '@/app/(console)/_lib/site-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function EditSiteForm({ siteId, name, domain }: { siteId: string; name: string; domain: string | null }) {
  const [state, action] = useActionState(forSite(updateSiteAction, siteId), {});
  // The form shows what was typed after an error, and the stored values after a save.
  const values = state.values ?? { name, domain: domain ?? '' };
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field name="name" label="Name" type="text" required maxLength={200} defaultValue={values.name} error={state.errors?.name} />
      <Field
        name="domain"
        label="Domain"
        type="text"
        placeholder="example.com"
        autoCapitalize="none"
        spellCheck={false}
        hint="The shop's address: example.com, or paste its URL and the host is kept. Leave empty to remove it. Browsers on this domain (and its www. twin) may send tracking events without a key."
        defaultValue={values.domain}
        error={state.errors?.domain}
      />
      <p role="status" className="status">
        {state.result && 'Saved.'}
      </p>
      <SubmitButton pending="Saving…">Save</SubmitButton>
    </form>
  );
}
