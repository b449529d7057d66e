'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { createKeyAction } from '@/app/(console)/_lib/key-actions';
import { ActionForm } from '@/components/action-form';
import { ExpiryField, Field, VERBATIM } from '@/components/field';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';

export function CreateKeyForm({ siteId }: { siteId: string }) {
  return (
    <ActionForm
      action={forSite(createKeyAction, siteId)}
      submit="Create key"
      shown={(key) => (
        <ShownOnce id={key.id} value={key.apiKey} title={`Your new key “${key.name}”`} noun="key" testId="new-api-key" headingId="new-key-heading">
          Only a hash is stored; if you lose it, revoke it and create another.
        </ShownOnce>
      )}
    >
      {(f) => (
        <>
          <div className="row">
            <Field {...f.field('name')} label="Name" type="text" required maxLength={100} placeholder="Production server" />
            <ExpiryField state={f.state} />
            <Field {...f.field('prefix', 'key')} {...VERBATIM} label="Prefix" maxLength={16} hint="Lowercase letters or digits." />
          </div>
          <CheckGroup
            name="scopes"
            legend="Scopes"
            options={[{ value: 'read' }, { value: 'write' }]}
            values={f.state.values}
            // A fresh form starts with read only.
            initially={(scope) => scope === 'read'}
            hint="read: GET routes. write: routes that create or change data."
            error={f.state.errors?.scopes}
          />
        </>
      )}
    </ActionForm>
  );
}
