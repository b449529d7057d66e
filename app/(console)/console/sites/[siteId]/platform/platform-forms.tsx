'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createAppAction, createPlatformKeyAction, revokePlatformKeyAction } from '@/app/(console)/_lib/platform-actions';
import { ActionForm } from '@/components/action-form';
import { ExpiryField, Field, SelectField } from '@/components/field';
import { RemoveButton } from '@/components/forms/remove-button';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';
import type { CreatedPlatformKey } from '@/lib/platform/schema';

export function CreateAppForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm
      action={forSite(createAppAction, siteId)}
      submit="Create app"
      done={(schema) => (
        <>
          Created; its schema is <span className="mono">{schema}</span>.
        </>
      )}
    >
      {(f) => <Field {...f.field('name')} id="field-app-name" label="App name" type="text" required maxLength={100} placeholder="Booking app" />}
    </ActionForm>
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
  return (
    <ActionForm
      action={forSite(createPlatformKeyAction, siteId)}
      submit="Create platform key"
      shown={(key: CreatedPlatformKey) => (
        <ShownOnce
          id={key.id}
          value={key.platformKey}
          title={`Your new platform key “${key.name}”`}
          noun="key"
          testId="new-platform-key"
          headingId="new-platform-key-heading"
        >
          Put it in the generated app&apos;s environment; only a hash is stored.
        </ShownOnce>
      )}
    >
      {(f) => (
        <>
          <div className="row">
            <SelectField {...f.field('app_id', apps[0]?.id)} label="App" options={apps.map((a) => ({ value: a.id, label: a.name }))} />
            <Field {...f.field('name')} id="field-key-name" label="Name" type="text" required maxLength={100} placeholder="Production" />
            <ExpiryField state={f.state} />
          </div>
          <CheckGroup
            name="capabilities"
            legend="Capabilities"
            options={capabilities.map((c) => ({ value: c.name, title: c.description }))}
            values={f.state.values}
            initially={(c) => c === 'leads.read'}
            error={f.state.errors?.capabilities}
          />
        </>
      )}
    </ActionForm>
  );
}

export function RevokePlatformKeyButton({ siteId, keyId, name }: { siteId: string; keyId: string; name: string }) {
  return (
    <RemoveButton
      action={forSite(revokePlatformKeyAction, siteId)}
      target={{ key_id: keyId }}
      verb="Revoke"
      noun="key"
      subject={name}
      focusAfter="platform-keys-heading"
      id={`revoke-platform-${keyId}`}
    >
      The app using this key is refused from its next request on. This cannot be undone.
    </RemoveButton>
  );
}
