'use client';

import { useActionState, useState } from 'react';
import { Field, FormError, VERBATIM } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { signInAction } from '../_lib/auth-actions';

/**
 * Email and password; for an account with two-factor sign-in, a second step asks for the code
 * (the action answered OTP_REQUIRED next to `otp`). The password typed in the first step is kept in
 * this form's state only, and sent again with the code.
 */
export function SignInForm({ next }: { next: string }) {
  const [state, action] = useActionState(signInAction, {});
  const [password, setPassword] = useState('');
  const codeStep = state.errors?.otp !== undefined || state.values?.otp_step === '1';
  if (codeStep) {
    return (
      <form action={action} noValidate aria-label="Two-factor code">
        {/* The only message placed next to `otp` is OTP_REQUIRED's: this step says it in the console's words. */}
        <p className="notice" role="status">
          Two-factor sign-in is on for this account: enter the code your authenticator app shows.
        </p>
        <FormError message={state.errors?.form} />
        <input type="hidden" name="next" value={next} />
        <input type="hidden" name="otp_step" value="1" />
        <input type="hidden" name="email" value={state.values?.email ?? ''} />
        <input type="hidden" name="password" value={password} />
        <Field
          name="otp"
          {...VERBATIM}
          label="Code from your authenticator app"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={64}
          autoFocus
          required
          hint="Or one of your recovery codes."
        />
        <SubmitButton pending="Checking…" className="button primary block">
          Sign in
        </SubmitButton>
      </form>
    );
  }
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form} />
      <input type="hidden" name="next" value={next} />
      <Field name="email" label="Email" type="email" autoComplete="email" required defaultValue={state.values?.email} error={state.errors?.email} />
      <Field
        name="password"
        label="Password"
        type="password"
        autoComplete="current-password"
        required
        onChange={(event) => setPassword(event.currentTarget.value)}
        error={state.errors?.password}
      />
      <SubmitButton pending="Signing in…" className="button primary block">
        Sign in
      </SubmitButton>
    </form>
  );
}
