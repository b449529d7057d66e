'use client';

import { useActionState } from 'react';
import { SubmitButton } from '@/components/submit-button';
import { resendVerificationAction } from '../_lib/auth-actions';

/** Shown on every console page until the account's address is verified. */
export function VerifyBanner({ email }: { email: string }) {
  const [state, action] = useActionState(resendVerificationAction, {});
  return (
    <div className="verify-banner">
      <span role="status">
        {state.result === true
          ? `A new verification link was sent to ${email}.`
          : state.result === false
            ? 'Your email address is already verified.'
            : (state.errors?.form ?? `Verify your email address: open the link we sent to ${email}.`)}
      </span>
      <form action={action}>
        <SubmitButton pending="Sending…" className="button small">
          Resend link
        </SubmitButton>
      </form>
    </div>
  );
}
