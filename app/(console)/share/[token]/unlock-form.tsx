'use client';

import { unlockShareAction } from '@/app/(console)/_lib/share-actions';
import { ActionForm } from '@/components/action-form';
import { Field } from '@/components/field';

/** The password of a shared dashboard; right, the page shows the dashboard (a cookie keeps it for this link). */
export function UnlockForm({ token }: { token: string }) {
  return (
    <ActionForm action={unlockShareAction} hidden={{ token }} submit="Show the dashboard" pending="Checking…">
      {(f) => <Field {...f.field('password')} label="Password" type="password" autoComplete="current-password" required />}
    </ActionForm>
  );
}
