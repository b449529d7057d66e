import { found, notFound } from '@/lib/core/errors';
import { withinAccountCap } from './caps';
import { countSitesOfOwner, createSite, getSite, listSitesOfOwner, removeSiteOrigin, updateSite } from './repo';
import type { CreateSiteInput, UpdateSiteInput } from './schema';

/** A new site of the account, within the sites its plan allows (403 PLAN_LIMIT_REACHED beyond). */
export function createSiteOf(ownerId: string, input: CreateSiteInput, origins: string[] = []) {
  return withinAccountCap(
    ownerId,
    'sites_per_account',
    (tx) => countSitesOfOwner(ownerId, tx),
    (tx) => createSite(ownerId, input, origins, tx),
  );
}

/** Sites of a user; with `id`, just that one when the user owns it (404 otherwise). */
export async function sitesForUser(userId: string, query: { id?: string }) {
  if (!query.id) return listSitesOfOwner(userId);
  return found(await getSite(query.id, userId), 'Site');
}

export async function siteDetail(siteId: string) {
  return found(await getSite(siteId), 'Site');
}

export async function removeOrigin(siteId: string, originId: string) {
  if (!(await removeSiteOrigin(siteId, originId))) throw notFound('Allowed origin');
  return { message: 'Origin removed' };
}

export async function updateSiteOf(siteId: string, input: UpdateSiteInput) {
  return found(await updateSite(siteId, input), 'Site');
}

export { addSiteOrigin, getSite, listSiteOrigins, listSitesOfOwner } from './repo';
export { siteStats } from './stats-repo';
