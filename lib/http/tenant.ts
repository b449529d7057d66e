import { isSiteOwner } from '@/lib/sites/repo';
import { ApiError, type ErrorCode } from '@/lib/core/errors';
import type { Principal } from './authenticate';
import { isUuid } from '@/lib/core/schemas';

/** `site_id` as sent in the path, query or body, before schema parsing. */
export function requestedSiteIds(...sources: unknown[]): unknown[] {
  const found: unknown[] = [];
  for (const source of sources) {
    if (source && typeof source === 'object' && !Array.isArray(source) && 'site_id' in source) {
      found.push((source as { site_id: unknown }).site_id);
    }
  }
  return found;
}

/**
 * The site a request acts on. An API key's site is the tenant: any `site_id` the request names
 * must be that site (403 otherwise). A session may name any site its user owns.
 * A `site_id` that is not a UUID is a bad request (`invalidCode`, INVALID_REQUEST by default).
 */
export async function resolveSite(
  principal: Principal,
  requested: unknown[],
  invalidCode: ErrorCode = 'INVALID_REQUEST',
): Promise<string | undefined> {
  const ids = requested.filter((v) => v !== undefined);
  for (const id of ids) {
    if (typeof id !== 'string' || !isUuid(id)) throw new ApiError(invalidCode, 'site_id must be a UUID');
  }
  const wanted = [...new Set((ids as string[]).map((id) => id.toLowerCase()))];
  if (principal.kind === 'apiKey' || principal.kind === 'origin') {
    if (wanted.some((id) => id !== principal.siteId)) {
      throw new ApiError('FORBIDDEN', 'This API key does not belong to the requested site');
    }
    return principal.siteId;
  }
  if (wanted.length > 1) throw new ApiError('INVALID_REQUEST', 'Conflicting site_id values in the request');
  const [siteId] = wanted;
  if (siteId && principal.kind === 'session' && !(await isSiteOwner(siteId, principal.user.id))) {
    throw new ApiError('FORBIDDEN', 'You do not have access to this site');
  }
  return siteId;
}
