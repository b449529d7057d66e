'use client';

import { useActionState, useEffect, useRef, useState } from 'react';
import type { CreatedKey } from '@/lib/keys/schema';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { createKeyAction } from '../../../../_lib/key-actions';
import type { FormState } from '../../../../_lib/forms';

export function CreateKeyForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(createKeyAction.bind(null, siteId), {} as FormState<CreatedKey>);
  const created = state.result;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const shown = created && dismissed !== created.id ? created : null;
  const heading = useRef<HTMLHeadingElement>(null);
  // After an error the form shows what was sent; a fresh form starts with read only.
  const checked = (scope: string) => (state.values ? (state.values.scopes ?? '').split(',').includes(scope) : scope === 'read');
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);

  return (
    <>
      {shown && (
        <div className="card secret" role="region" aria-labelledby="new-key-heading">
          <h3 id="new-key-heading" ref={heading} tabIndex={-1}>
            Your new key “{shown.name}”
          </h3>
          <p>
            <strong>Copy it now: you will not see it again.</strong> Only a hash is stored; if you lose it, revoke it and
            create another.
          </p>
          <code className="secret-value" data-testid="new-api-key">
            {shown.apiKey}
          </code>
          <div className="row">
            <CopyButton text={shown.apiKey} label="Copy key" />
            <button type="button" className="button link" onClick={() => setDismissed(shown.id)}>
              I have stored it, hide the key
            </button>
          </div>
        </div>
      )}
      <form action={action} noValidate>
        <FormError message={state.errors?.form} />
        <div className="row">
          <Field
            name="name"
            label="Name"
            type="text"
            required
            maxLength={100}
            placeholder="Production server"
            defaultValue={state.values?.name}
            error={state.errors?.name}
          />
          <Field
            name="expirationDays"
            label="Expires after (days)"
            type="number"
            inputMode="numeric"
            min={1}
            max={365}
            defaultValue={state.values?.expirationDays ?? '90'}
            error={state.errors?.expirationDays}
          />
          <Field
            name="prefix"
            label="Prefix"
            type="text"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={16}
            defaultValue={state.values?.prefix ?? 'key'}
            hint="Lowercase letters or digits."
            error={state.errors?.prefix}
          />
        </div>
        <fieldset aria-describedby={state.errors?.scopes ? 'scopes-error' : undefined}>
          <legend>Scopes</legend>
          <div className="checks">
            <label>
              <input type="checkbox" name="scopes" value="read" defaultChecked={checked('read')} /> read
            </label>
            <label>
              <input type="checkbox" name="scopes" value="write" defaultChecked={checked('write')} /> write
            </label>
          </div>
          <p className="hint">read: GET routes. write: routes that create or change data.</p>
          {state.errors?.scopes && (
            <p className="error" id="scopes-error">
              {state.errors.scopes}
            </p>
          )}
        </fieldset>
        <SubmitButton pending="Creating…">Create key</SubmitButton>
      </form>
    </>
  );
}
