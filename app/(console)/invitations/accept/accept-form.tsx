'use client';

import { useActionState } from 'react';
import { FormError } from '@/components/field';
import { SubmitButton } from '@/components/submit-button';
import { acceptInvitationAction } from '../../_lib/member-actions';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [state, action] = useActionState(acceptInvitationAction, {});
  return (
    <form action={action} noValidate>
      <FormError message={state.errors?.form ?? state.errors?.token} />
      <input type="hidden" name="token" value={token} />
      <p className="hint">You are signed in as {email}.</p>
      <SubmitButton pending="Joining…" className="button primary block">
        Accept the invitation
      </SubmitButton>
    </form>
  );
}
