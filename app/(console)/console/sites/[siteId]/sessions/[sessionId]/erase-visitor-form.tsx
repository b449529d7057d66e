'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { eraseVisitorAction } from '@/app/(console)/_lib/person-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

/** Erases a visitor no lead is linked to, with every visit, event and file; ERASE typed to confirm. */
export function EraseVisitorForm({ siteId, visitorId }: { siteId: string; visitorId: string }) {
  const [state, action] = useActionState(forSite(eraseVisitorAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form ?? state.errors?.visitor_id} />
      <input type="hidden" name="visitor_id" value={visitorId} />
      <Field
        name="confirm"
        label="Type ERASE to confirm"
        type="text"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        required
        defaultValue={state.values?.confirm}
        error={state.errors?.confirm}
      />
      <SubmitButton pending="Erasing…" className="button danger">
        Erase this person
      </SubmitButton>
    </form>
  );
}
