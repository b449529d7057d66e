'use server';

import { tagReportedIn } from '@/lib/visitors/service';
import { requireOwnedSite } from './session';

/** Whether the signed-in owner's site has received its first visit (the overview's waiting state asks). */
export async function tagStatusAction(siteId: string): Promise<boolean> {
  const { site } = await requireOwnedSite(siteId);
  return tagReportedIn(site.id);
}
