'use client';

import { forSite } from '@/app/(console)/_lib/for-site';
import { deleteSiteAction } from '@/app/(console)/_lib/site-actions';
import { TypedConfirmForm } from '@/components/action-form';

/** The typed confirmation: the button deletes only when the site's name was typed exactly. */
export function DeleteSiteForm({ siteId, name }: { siteId: string; name: string }) {
  return (
    <TypedConfirmForm action={forSite(deleteSiteAction, siteId)} label={`Type the site's name, “${name}”, to confirm`} submit="Delete this site" />
  );
}
