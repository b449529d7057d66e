'use client';

import { useActionState } from 'react';
import { Field, FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { signInAction } from '../_lib/auth-actions';

export function SignInForm({ next }: { next: string }) {
  const [state, action] = useActionState(signInAction, {});
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <input type="hidden" name="next" value={next} />
      <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.errors?.email} />
      <Field name="password" label="Password" type="password" autoComplete="current-password" required error={state.errors?.password} />
      <SubmitButton pending="Signing in…" className="button primary block">
        Sign in
      </SubmitButton>
    </form>
  );
}
