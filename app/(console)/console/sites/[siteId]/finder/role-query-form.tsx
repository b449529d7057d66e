'use client';

import { useActionState } from 'react';
import { FormError } from '@/components/field';
import { SchemaInput } from '@/components/kit/schema-input';
import { SubmitButton } from '@/components/submit-button';
import { createRoleQueryAction } from '../../../../_lib/finder-actions';
import type { FormState } from '../../../../_lib/forms';
import type { SchemaField } from '../../../../_lib/schema-form';

export function RoleQueryForm({ siteId, fields }: { siteId: string; fields: SchemaField[] }) {
  const [state, action] = useActionState(createRoleQueryAction.bind(null, siteId), {} as FormState<string>);
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <FormError message={e.form} />
      {fields.map((f) => (
        <SchemaInput key={f.name} field={f} value={state.values?.[f.name]} error={e[f.name]} />
      ))}
      <p role="status" className="status">
        {state.result && `Role query “${state.result}” saved; mining has started.`}
      </p>
      <SubmitButton pending="Saving…">Create role query</SubmitButton>
    </form>
  );
}
