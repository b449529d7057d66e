'use client';

import { useActionState } from 'react';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { verifyEmailAction } from '../_lib/auth-actions';

export function VerifyEmailForm({ token }: { token: string }) {
  const [state, action] = useActionState(verifyEmailAction, {});
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form ?? state.errors?.token} />
      <input type="hidden" name="token" value={token} />
      <p className="hint">Confirm that this address is yours.</p>
      <SubmitButton pending="Verifying…" className="button primary block">
        Verify my address
      </SubmitButton>
    </form>
  );
}
