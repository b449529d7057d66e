'use client';

import { useActionState } from 'react';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { forgotPasswordAction } from '../_lib/auth-actions';

export function ForgotPasswordForm() {
  const [state, action] = useActionState(forgotPasswordAction, {});
  return (
    <form action={action} noValidate>
      {state.result && (
        <p className="notice" role="status">
          {state.result}
        </p>
      )}
      <FormError message={state.errors?.form} />
      <p className="hint">Enter the email address of your account: we mail it a link to choose a new password.</p>
      <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.errors?.email} />
      <SubmitButton pending="Sending…" className="button primary block">
        Send reset link
      </SubmitButton>
    </form>
  );
}
