'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { FormError } from '@/components/field';
import { SchemaInput } from '@/components/kit/schema-input';
import { SubmitButton } from '@/components/submit-button';
import type { FormState } from '../../../../_lib/forms';
import { createRobotAction } from '../../../../_lib/instance-actions';
import type { SchemaField } from '../../../../_lib/schema-form';

export function CreateRobotForm({ siteId, fields }: { siteId: string; fields: SchemaField[] }) {
  const [state, action] = useActionState(createRobotAction.bind(null, siteId), {} as FormState<string>);
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <FormError message={e.form} />
      {fields.map((f) => (
        <SchemaInput key={f.name} field={f} value={state.values?.[f.name]} error={e[f.name]} />
      ))}
      <p role="status" className="status">
        {state.result && (
          <>
            Robot created. <Link href={`/console/sites/${siteId}/instances/${state.result}`}>Open it</Link>
          </>
        )}
      </p>
      <SubmitButton pending="Creating…">Create robot</SubmitButton>
    </form>
  );
}
