import { ApiError, found, notFound } from '@/lib/http/errors';
import { getSite, listSitesOfOwner, removeSiteOrigin } from './repo';

/** Sites of a user; with `id` or `site_id`, just that one when the user owns it (404 otherwise). */
export async function sitesForUser(userId: string, query: { id?: string; site_id?: string }) {
  if (query.id && query.site_id && query.id !== query.site_id) {
    throw new ApiError('INVALID_REQUEST', 'id and site_id name different sites');
  }
  const siteId = query.id ?? query.site_id;
  if (!siteId) return listSitesOfOwner(userId);
  return found(await getSite(siteId, userId), 'Site');
}

export async function siteDetail(siteId: string) {
  return found(await getSite(siteId), 'Site');
}

export async function removeOrigin(siteId: string, originId: string) {
  if (!(await removeSiteOrigin(siteId, originId))) throw notFound('Allowed origin');
  return { message: 'Origin removed' };
}
