'use client';

import Link from 'next/link';
import { forSite } from '@/app/(console)/_lib/for-site';
import { startWorkflowAction } from '@/app/(console)/_lib/workflow-start-actions';
import type { SchemaField } from '@/components/schema-form/fields';
import { SchemaForm } from '@/components/schema-form/schema-form';

/** The form of a workflow's body, one field per property of its schema. */
export function StartWorkflowForm({
  siteId,
  workflow,
  fields,
  label = 'Start run',
}: {
  siteId: string;
  workflow: string;
  fields: SchemaField[];
  label?: string;
}) {
  return (
    <SchemaForm
      action={forSite(startWorkflowAction, siteId)}
      fields={fields}
      hidden={{ workflow_name: workflow }}
      submit={label}
      pending="Starting…"
      done={(workflowId: string) => (
        <>
          Started. <Link href={`/console/sites/${siteId}/workflows/${encodeURIComponent(workflowId)}`}>Open the run</Link>
        </>
      )}
    >
      {fields.length === 0 && <p className="hint">This workflow needs nothing but the site.</p>}
    </SchemaForm>
  );
}
