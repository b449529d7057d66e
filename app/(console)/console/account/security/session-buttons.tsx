'use client';

import { endOtherSessionsAction, endSessionAction } from '@/app/(console)/_lib/account-actions';
import { ConfirmButton } from '@/components/confirm-button';

export function EndSessionButton({ sessionId, device }: { sessionId: string; device: string }) {
  return (
    <ConfirmButton
      action={endSessionAction}
      fields={{ session_id: sessionId }}
      label="Sign out"
      subject={device}
      title="Sign this session out?"
      confirm="Sign out"
      pending="Signing out…"
      focusAfter="sessions-heading"
      id={`end-${sessionId}`}
    >
      <p>Its cookie or session token is refused from the next request on.</p>
    </ConfirmButton>
  );
}

export function EndOtherSessionsButton() {
  return (
    <ConfirmButton
      action={endOtherSessionsAction}
      fields={{}}
      label="Sign out everywhere else"
      subject="every other session"
      title="Sign out every other session?"
      confirm="Sign out the others"
      pending="Signing out…"
      focusAfter="sessions-heading"
      id="end-others"
    >
      <p>Every browser and session token of your account but this one stops working at once.</p>
    </ConfirmButton>
  );
}
