'use server';

import { tagReportedIn } from '@/lib/visitors/service';
import { requireSiteAccess } from './session';

/** Whether the signed-in owner's site has received its first visit (the overview's waiting state asks). */
export async function tagStatusAction(siteId: string): Promise<boolean> {
  const { site } = await requireSiteAccess(siteId);
  return tagReportedIn(site.id);
}
