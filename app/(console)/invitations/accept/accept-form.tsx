'use client';

import { ActionForm } from '@/components/action-form';
import { acceptInvitationAction } from '../../_lib/member-actions';

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  return (
    <ActionForm
      action={acceptInvitationAction}
      hidden={{ token }}
      submit="Accept the invitation"
      pending="Joining…"
      submitClass="button primary block"
    >
      {() => <p className="hint">You are signed in as {email}.</p>}
    </ActionForm>
  );
}
