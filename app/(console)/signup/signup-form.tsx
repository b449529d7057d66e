'use client';

import { useActionState } from 'react';
import { Field, FormError } from '@/components/field';
import { useKeepTyped } from '@/components/keep-typed';
import { SubmitButton } from '@/components/submit-button';
import { signUpAction } from '../_lib/auth-actions';

export function SignUpForm({ next }: { next: string }) {
  const [state, action] = useActionState(signUpAction, {});
  // A refused sign-up (a short password, a closed sign-up) keeps the password typed.
  const keep = useKeepTyped(state);
  return (
    <form action={action} noValidate {...keep}>
      <FormError message={state.errors?.form} />
      <input type="hidden" name="next" value={next} />
      <Field name="name" label="Name (optional)" type="text" autoComplete="name" defaultValue={state.values?.name} error={state.errors?.name} />
      <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.errors?.email} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        data-keep
        hint="At least 10 characters."
        error={state.errors?.password}
      />
      <SubmitButton pending="Creating account…" className="button primary block">
        Create account
      </SubmitButton>
    </form>
  );
}
