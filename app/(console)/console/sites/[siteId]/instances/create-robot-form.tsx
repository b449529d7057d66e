'use client';

import Link from 'next/link';
import { SchemaForm } from '@/components/kit/schema-form';
import { createRobotAction } from '../../../../_lib/instance-actions';
import type { SchemaField } from '../../../../_lib/schema-form';

export function CreateRobotForm({ siteId, fields }: { siteId: string; fields: SchemaField[] }) {
  return (
    <SchemaForm
      action={createRobotAction.bind(null, siteId)}
      fields={fields}
      submit="Create robot"
      pending="Creating…"
      done={(id: string) => (
        <>
          Robot created. <Link href={`/console/sites/${siteId}/instances/${id}`}>Open it</Link>
        </>
      )}
    />
  );
}
