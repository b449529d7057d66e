'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { removeOriginAction } from '@/app/(console)/_lib/origin-actions';
import { RemoveButton } from '@/components/forms/remove-button';

/** "Remove" asks for confirmation in a modal dialog; afterwards the focus moves to the origins heading. */
export function RemoveOriginButton({ siteId, originId, origin }: { siteId: string; originId: string; origin: string }) {
  return (
    <RemoveButton
      action={forSite(removeOriginAction, siteId)}
      target={{ origin_id: originId }}
      verb="Remove"
      noun="origin"
      subject={origin}
      focusAfter="origins-heading"
    >
      Browsers on this origin can no longer send visitor events for the site, from their next request on.
    </RemoveButton>
  );
}
