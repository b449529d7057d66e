'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { addOriginAction } from '@/app/(console)/_lib/origin-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function AddOriginForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(addOriginAction, siteId), {} as FormState<string>);
  // React resets the form after the action: an added origin leaves an empty field, an error keeps what was typed.
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="origin"
        label="Origin"
        type="text"
        inputMode="url"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={300}
        placeholder="https://app.example.com"
        hint="Scheme, host and port if not the default — no path. Each port is its own origin."
        defaultValue={state.values?.origin}
        error={state.errors?.origin}
      />
      <p role="status" className="status">
        {state.result && (
          <>
            Added <span className="mono">{state.result}</span>.
          </>
        )}
      </p>
      <SubmitButton pending="Adding…">Add origin</SubmitButton>
    </form>
  );
}
