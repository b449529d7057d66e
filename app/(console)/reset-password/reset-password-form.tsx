'use client';

import { ActionForm } from '@/components/action-form';
import { Field } from '@/components/field';
import { resetPasswordAction } from '../_lib/auth-actions';

export function ResetPasswordForm({ token }: { token: string }) {
  return (
    <ActionForm action={resetPasswordAction} hidden={{ token }} submit="Set new password" pending="Saving…" submitClass="button primary block">
      {(f) => (
        <Field
          {...f.field('password')}
          label="New password"
          type="password"
          autoComplete="new-password"
          required
          minLength={10}
          hint="At least 10 characters. Every session of the account ends: sign in again afterwards."
        />
      )}
    </ActionForm>
  );
}
