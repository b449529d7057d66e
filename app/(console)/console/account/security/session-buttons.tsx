'use client';

import { endOtherSessionsAction, endSessionAction } from '@/app/(console)/_lib/account-actions';
import { RemoveButton } from '@/components/forms/remove-button';

export function EndSessionButton({ sessionId, device }: { sessionId: string; device: string }) {
  return (
    <RemoveButton
      action={endSessionAction}
      target={{ session_id: sessionId }}
      verb="Sign out"
      subject={device}
      title="Sign this session out?"
      focusAfter="sessions-heading"
      id={`end-${sessionId}`}
    >
      Its cookie or session token is refused from the next request on.
    </RemoveButton>
  );
}

export function EndOtherSessionsButton() {
  return (
    <RemoveButton
      action={endOtherSessionsAction}
      target={{}}
      verb="Sign out"
      label="Sign out everywhere else"
      noun="the others"
      subject="every other session"
      title="Sign out every other session?"
      focusAfter="sessions-heading"
      id="end-others"
    >
      Every browser and session token of your account but this one stops working at once.
    </RemoveButton>
  );
}
