'use client';

import Link from 'next/link';
import { forSite } from '@/app/(console)/_lib/for-site';
import { createRobotAction } from '@/app/(console)/_lib/instance-actions';
import type { SchemaField } from '@/components/schema-form/fields';
import { SchemaForm } from '@/components/schema-form/schema-form';

export function CreateRobotForm({ siteId, fields }: { siteId: string; fields: SchemaField[] }) {
  return (
    <SchemaForm
      action={forSite(createRobotAction, siteId)}
      fields={fields}
      submit="Create robot"
      done={(id: string) => (
        <>
          Robot created. <Link href={`/console/sites/${siteId}/instances/${id}`}>Open it</Link>
        </>
      )}
    />
  );
}
