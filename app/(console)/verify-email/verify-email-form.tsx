'use client';

import { ActionForm } from '@/components/action-form';
import { verifyEmailAction } from '../_lib/auth-actions';

export function VerifyEmailForm({ token }: { token: string }) {
  return (
    <ActionForm action={verifyEmailAction} hidden={{ token }} submit="Verify my address" pending="Verifying…" submitClass="button primary block">
      {() => <p className="hint">Confirm that this address is yours.</p>}
    </ActionForm>
  );
}
