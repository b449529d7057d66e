'use server';

import { realtime, visitsStateOf } from '@/lib/analytics/service';
import { requireSiteAccess } from './session';

/** The mark of the site's latest visit or activity: the open Overview renders again when it changes. */
export async function visitsMarkAction(siteId: string): Promise<string> {
  const { site } = await requireSiteAccess(siteId);
  return (await visitsStateOf(site.id)).mark;
}

/** Visitors active in the last 5 minutes, with the filters the Overview shows (GET /sites/{id}/analytics/realtime). */
export async function visitorsNowAction(siteId: string, filters: string[]): Promise<number> {
  const { site } = await requireSiteAccess(siteId);
  return (await realtime(site.id, { filter: filters })).visitors;
}
