'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { removeOriginAction } from '@/app/(console)/_lib/origin-actions';
import { ConfirmButton } from '@/components/confirm-button';

/** "Remove" asks for confirmation in a modal dialog; afterwards the focus moves to the origins heading. */
export function RemoveOriginButton({ siteId, originId, origin }: { siteId: string; originId: string; origin: string }) {
  return (
    <ConfirmButton
      action={forSite(removeOriginAction, siteId)}
      fields={{ origin_id: originId }}
      label="Remove"
      subject={origin}
      title={`Remove ${origin}?`}
      confirm="Remove origin"
      pending="Removing…"
      focusAfter="origins-heading"
      id={`remove-${originId}`}
    >
      <p>Browsers on this origin can no longer send visitor events for the site, from their next request on.</p>
    </ConfirmButton>
  );
}
