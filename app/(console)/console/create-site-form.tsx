'use client';

import { useActionState } from 'react';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { createSiteAction } from '../_lib/site-actions';

export function CreateSiteForm() {
  const [state, action] = useActionState(createSiteAction, {});
  const originsError = state.errors?.origins;
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
        hint="The shop's address: example.com, or paste its URL and the host is kept. Browsers on this domain may send tracking events without a key."
        defaultValue={state.values?.domain}
        error={state.errors?.domain}
      />
      <div className="field">
        <label htmlFor="field-origins">Other allowed origins (optional)</label>
        <textarea
          id="field-origins"
          name="origins"
          rows={2}
          autoCapitalize="none"
          spellCheck={false}
          placeholder="https://app.example.com"
          aria-invalid={originsError ? true : undefined}
          aria-describedby={`field-origins-hint${originsError ? ' field-origins-error' : ''}`}
          defaultValue={state.values?.origins}
        />
        <p className="hint" id="field-origins-hint">
          One per line: scheme, host and port, no path. Browsers there may send tracking events too.
        </p>
        {originsError && (
          <p className="error" id="field-origins-error">
            {originsError}
          </p>
        )}
      </div>
      <SubmitButton pending="Creating…">Create site</SubmitButton>
    </form>
  );
}
