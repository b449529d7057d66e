'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { addSecretAction } from '@/app/(console)/_lib/secret-actions';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';

export function AddSecretForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(addSecretAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="identifier"
        label="Identifier"
        type="text"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={200}
        placeholder="stripe.live"
        hint="Tells the secret apart within the site; servers decrypt it by its id."
        defaultValue={state.values?.identifier}
        error={state.errors?.identifier}
      />
      <Field
        name="type"
        label="Type"
        type="text"
        autoCapitalize="none"
        spellCheck={false}
        maxLength={50}
        placeholder="api_key"
        hint="Lowercase, e.g. api_key, oauth_token, password, webhook_secret."
        defaultValue={state.values?.type ?? 'api_key'}
        error={state.errors?.type}
      />
      <Field
        name="value"
        label="Value"
        type="password"
        autoComplete="off"
        spellCheck={false}
        hint="Encrypted before it is stored. It is never shown again here; servers read it with a write key."
        error={state.errors?.value}
      />
      <p role="status" className="status">
        {state.result && (
          <>
            Stored <span className="mono">{state.result}</span>.
          </>
        )}
      </p>
      <SubmitButton pending="Storing…">Store secret</SubmitButton>
    </form>
  );
}
