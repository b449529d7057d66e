'use client';

import { useActionState, useEffect, useRef, useState } from 'react';
import type { CreatedPlatformKey } from '@/lib/platform/schema';
import { ConfirmButton } from '@/components/confirm-button';
import { CopyButton } from '@/components/copy-button';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import type { FormState } from '../../../../_lib/forms';
import { createAppAction, createPlatformKeyAction, revokePlatformKeyAction } from '../../../../_lib/platform-actions';

export function CreateAppForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(createAppAction.bind(null, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field name="name" id="field-app-name" label="App name" type="text" required maxLength={100} placeholder="Booking app" defaultValue={state.values?.name} error={state.errors?.name} />
      <p role="status" className="status">
        {state.result && (
          <>
            Created; its schema is <span className="mono">{state.result}</span>.
          </>
        )}
      </p>
      <SubmitButton pending="Creating…">Create app</SubmitButton>
    </form>
  );
}

export function CreatePlatformKeyForm({
  siteId,
  apps,
  capabilities,
}: {
  siteId: string;
  apps: { id: string; name: string }[];
  capabilities: { name: string; description: string }[];
}) {
  const [state, action] = useActionState(createPlatformKeyAction.bind(null, siteId), {} as FormState<CreatedPlatformKey>);
  const created = state.result;
  const [dismissed, setDismissed] = useState<string | null>(null);
  const shown = created && dismissed !== created.id ? created : null;
  const heading = useRef<HTMLHeadingElement>(null);
  const checked = (c: string) => (state.values ? (state.values.capabilities ?? '').split(',').includes(c) : c === 'leads.read');
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);
  return (
    <>
      {shown && (
        <div className="card secret" role="region" aria-labelledby="new-platform-key-heading">
          <h3 id="new-platform-key-heading" ref={heading} tabIndex={-1}>
            Your new platform key “{shown.name}”
          </h3>
          <p>
            <strong>Copy it now: you will not see it again.</strong> Put it in the generated app&apos;s environment; only a hash
            is stored.
          </p>
          <code className="secret-value" data-testid="new-platform-key">
            {shown.platformKey}
          </code>
          <div className="row">
            <CopyButton text={shown.platformKey} label="Copy key" />
            <button type="button" className="button link" onClick={() => setDismissed(shown.id)}>
              I have stored it, hide the key
            </button>
          </div>
        </div>
      )}
      <form action={action} noValidate>
        <FormError message={state.errors?.form} />
        <div className="row">
          <div className="field">
            <label htmlFor="field-app_id">App</label>
            <select id="field-app_id" name="app_id" defaultValue={state.values?.app_id ?? apps[0]?.id} aria-invalid={state.errors?.app_id ? true : undefined}>
              {apps.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
            {state.errors?.app_id && <p className="error">{state.errors.app_id}</p>}
          </div>
          <Field name="name" id="field-key-name" label="Name" type="text" required maxLength={100} placeholder="Production" defaultValue={state.values?.name} error={state.errors?.name} />
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
        </div>
        <fieldset aria-describedby={state.errors?.capabilities ? 'capabilities-error' : undefined}>
          <legend>Capabilities</legend>
          <div className="checks">
            {capabilities.map((c) => (
              <label key={c.name} title={c.description}>
                <input type="checkbox" name="capabilities" value={c.name} defaultChecked={checked(c.name)} /> {c.name}
              </label>
            ))}
          </div>
          {state.errors?.capabilities && (
            <p className="error" id="capabilities-error">
              {state.errors.capabilities}
            </p>
          )}
        </fieldset>
        <SubmitButton pending="Creating…">Create platform key</SubmitButton>
      </form>
    </>
  );
}

export function RevokePlatformKeyButton({ siteId, keyId, name }: { siteId: string; keyId: string; name: string }) {
  return (
    <ConfirmButton
      action={revokePlatformKeyAction.bind(null, siteId)}
      fields={{ key_id: keyId }}
      label="Revoke"
      subject={name}
      title={`Revoke ${name}?`}
      confirm="Revoke key"
      pending="Revoking…"
      focusAfter="platform-keys-heading"
      id={`revoke-platform-${keyId}`}
    >
      <p>The app using this key is refused from its next request on. This cannot be undone.</p>
    </ConfirmButton>
  );
}
