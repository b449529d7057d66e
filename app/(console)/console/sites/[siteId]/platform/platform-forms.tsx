'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createAppAction, createPlatformKeyAction, revokePlatformKeyAction } from '@/app/(console)/_lib/platform-actions';
import { ConfirmButton } from '@/components/confirm-button';
import { ExpiryField, Field, FormError } from '@/components/field';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';
import { SubmitButton } from '@/components/submit-button';
import type { CreatedPlatformKey } from '@/lib/platform/schema';

export function CreateAppForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createAppAction, siteId), {} as FormState<string>);
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <Field
        name="name"
        id="field-app-name"
        label="App name"
        type="text"
        required
        maxLength={100}
        placeholder="Booking app"
        defaultValue={state.values?.name}
        error={state.errors?.name}
      />
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
  const [state, action] = useActionState(forSite(createPlatformKeyAction, siteId), {} as FormState<CreatedPlatformKey>);
  return (
    <>
      {state.result && (
        <ShownOnce
          id={state.result.id}
          value={state.result.platformKey}
          title={`Your new platform key “${state.result.name}”`}
          noun="key"
          testId="new-platform-key"
          headingId="new-platform-key-heading"
        >
          Put it in the generated app&apos;s environment; only a hash is stored.
        </ShownOnce>
      )}
      <form action={action} noValidate>
        <FormError message={state.errors?.form} />
        <div className="row">
          <div className="field">
            <label htmlFor="field-app_id">App</label>
            <select
              id="field-app_id"
              name="app_id"
              defaultValue={state.values?.app_id ?? apps[0]?.id}
              aria-invalid={state.errors?.app_id ? true : undefined}
            >
              {apps.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
            {state.errors?.app_id && <p className="error">{state.errors.app_id}</p>}
          </div>
          <Field
            name="name"
            id="field-key-name"
            label="Name"
            type="text"
            required
            maxLength={100}
            placeholder="Production"
            defaultValue={state.values?.name}
            error={state.errors?.name}
          />
          <ExpiryField state={state} />
        </div>
        <CheckGroup
          name="capabilities"
          legend="Capabilities"
          options={capabilities.map((c) => ({ value: c.name, title: c.description }))}
          values={state.values}
          initially={(c) => c === 'leads.read'}
          error={state.errors?.capabilities}
        />
        <SubmitButton pending="Creating…">Create platform key</SubmitButton>
      </form>
    </>
  );
}

export function RevokePlatformKeyButton({ siteId, keyId, name }: { siteId: string; keyId: string; name: string }) {
  return (
    <ConfirmButton
      action={forSite(revokePlatformKeyAction, siteId)}
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
