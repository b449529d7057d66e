'use client';

import Link from 'next/link';
import { useActionState } from 'react';
import { FormError } from '@/components/field';
import { SchemaInput } from '@/components/kit/schema-input';
import { SubmitButton } from '@/components/submit-button';
import type { FormState } from '../../../../../_lib/forms';
import type { SchemaField } from '../../../../../_lib/schema-form';
import { startWorkflowAction } from '../../../../../_lib/workflow-start-actions';

/** The form of a workflow's body, one field per property of its schema. */
export function StartWorkflowForm({ siteId, workflow, fields, label = 'Start run' }: { siteId: string; workflow: string; fields: SchemaField[]; label?: string }) {
  const [state, action] = useActionState(startWorkflowAction.bind(null, siteId), {} as FormState<string>);
  const v = state.values ?? {};
  const e = state.errors ?? {};
  return (
    <form action={action} noValidate>
      <input type="hidden" name="workflow_name" value={workflow} />
      <FormError message={e.form ?? e.workflow ?? e.body} />
      {fields.map((f) => (
        <SchemaInput key={f.name} field={f} value={v[f.name]} error={e[f.name]} />
      ))}
      {fields.length === 0 && <p className="hint">This workflow needs nothing but the site.</p>}
      <p role="status" className="status">
        {state.result && (
          <>
            Started. <Link href={`/console/sites/${siteId}/workflows/${encodeURIComponent(state.result)}`}>Open the run</Link>
          </>
        )}
      </p>
      <SubmitButton pending="Starting…">{label}</SubmitButton>
    </form>
  );
}
