'use server';

import { visitsStateOf } from '@/lib/analytics/service';
import { requireSiteAccess } from './session';

/** The mark of the site's latest visit or activity: the open Overview renders again when it changes. */
export async function visitsMarkAction(siteId: string): Promise<string> {
  const { site } = await requireSiteAccess(siteId);
  return (await visitsStateOf(site.id)).mark;
}
