'use client';

import { useActionState } from 'react';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { resetPasswordAction } from '../_lib/auth-actions';

export function ResetPasswordForm({ token }: { token: string }) {
  const [state, action] = useActionState(resetPasswordAction, {});
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form ?? state.errors?.token} />
      <input type="hidden" name="token" value={token} />
      <Field
        name="password"
        label="New password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        hint="At least 10 characters. Every session of the account ends: sign in again afterwards."
        error={state.errors?.password}
      />
      <SubmitButton pending="Saving…" className="button primary block">
        Set new password
      </SubmitButton>
    </form>
  );
}
