'use client';

import { createRoleQueryAction } from '@/app/(console)/_lib/finder-actions';
import { forSite } from '@/app/(console)/_lib/for-site';
import type { SchemaField } from '@/components/schema-form/fields';
import { SchemaForm } from '@/components/schema-form/schema-form';

export function RoleQueryForm({ siteId, fields }: { siteId: string; fields: SchemaField[] }) {
  return (
    <SchemaForm
      action={forSite(createRoleQueryAction, siteId)}
      fields={fields}
      submit="Create role query"
      pending="Saving…"
      done={(name: string) => `Role query “${name}” saved; mining has started.`}
    />
  );
}
