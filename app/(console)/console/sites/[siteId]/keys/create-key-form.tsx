'use client';

import { useActionState } from 'react';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { FormState } from '@/app/(console)/_lib/forms';
import { createKeyAction } from '@/app/(console)/_lib/key-actions';
import { ExpiryField, Field, FormError } from '@/components/field';
import { CheckGroup } from '@/components/kit/check-group';
import { ShownOnce } from '@/components/kit/shown-once';
import { SubmitButton } from '@/components/submit-button';
import type { CreatedKey } from '@/lib/keys/schema';

export function CreateKeyForm({ siteId }: { siteId: string }) {
  const [state, action] = useActionState(forSite(createKeyAction, siteId), {} as FormState<CreatedKey>);
  return (
    <>
      {state.result && (
        <ShownOnce
          id={state.result.id}
          value={state.result.apiKey}
          title={`Your new key “${state.result.name}”`}
          noun="key"
          testId="new-api-key"
          headingId="new-key-heading"
        >
          Only a hash is stored; if you lose it, revoke it and create another.
        </ShownOnce>
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
          <ExpiryField state={state} />
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
        <CheckGroup
          name="scopes"
          legend="Scopes"
          options={[{ value: 'read' }, { value: 'write' }]}
          values={state.values}
          // A fresh form starts with read only.
          initially={(scope) => scope === 'read'}
          hint="read: GET routes. write: routes that create or change data."
          error={state.errors?.scopes}
        />
        <SubmitButton pending="Creating…">Create key</SubmitButton>
      </form>
    </>
  );
}
