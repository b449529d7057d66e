import { found, notFound } from '@/lib/core/errors';
import { withinAccountCap } from './caps';
import { countSitesOfOwner, createSite, getSite, getSiteOfMember, listSitesOfMember, removeSiteOrigin, updateSite } from './repo';
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

/** Sites the user is a member of, with their role; with `id`, just that one (404 when the user is not a member). */
export async function sitesForUser(userId: string, query: { id?: string }) {
  if (!query.id) return listSitesOfMember(userId);
  return found(await getSiteOfMember(query.id, userId), 'Site');
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

export { addSiteOrigin, getSiteOfMember, listSiteOrigins, listSitesOfMember } from './repo';
export { siteStats } from './stats-repo';
