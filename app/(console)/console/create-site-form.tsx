'use client';

import { useActionState } from 'react';
import { createSiteAction } from '../_lib/site-actions';
import { Field, FormError } from '../_components/field';
import { SubmitButton } from '../_components/submit-button';

export function CreateSiteForm() {
  const [state, action] = useActionState(createSiteAction, {});
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field name="name" label="Name" type="text" required maxLength={200} defaultValue={state.values?.name} error={state.errors?.name} />
      <Field
        name="domain"
        label="Domain (optional)"
        type="text"
        placeholder="example.com"
        autoCapitalize="none"
        spellCheck={false}
        hint="Host name only, no https:// or path. Browsers on this domain may send tracking events without a key."
        defaultValue={state.values?.domain}
        error={state.errors?.domain}
      />
      <SubmitButton pending="Creating…">Create site</SubmitButton>
    </form>
  );
}
