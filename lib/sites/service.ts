import { found, notFound } from '@/lib/core/errors';
import { getSite, listSitesOfOwner, removeSiteOrigin, updateSite } from './repo';
import type { UpdateSiteInput } from './schema';

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
