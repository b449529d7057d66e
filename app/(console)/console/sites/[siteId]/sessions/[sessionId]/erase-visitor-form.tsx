'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { eraseVisitorAction } from '@/app/(console)/_lib/person-actions';
import { TypedConfirmForm } from '@/components/action-form';

/** Erases a visitor no lead is linked to, with every visit, event and file; ERASE typed to confirm. */
export function EraseVisitorForm({ siteId, visitorId }: { siteId: string; visitorId: string }) {
  return (
    <TypedConfirmForm
      action={forSite(eraseVisitorAction, siteId)}
      hidden={{ visitor_id: visitorId }}
      label="Type ERASE to confirm"
      capitals
      submit="Erase this person"
      pending="Erasing…"
    />
  );
}
