import type { ErrorCode } from '@/lib/core/errors';
import type { Principal } from '@/lib/core/principal';
import { requestedSites } from '@/lib/core/validate';
import type { Permission } from '@/lib/members/permissions';
import { strategyOf } from './auth';
import { siteIdIn } from './auth/origin';

/** `site_id` as sent in the path, query or body, before schema parsing. */
export function requestedSiteIds(...sources: unknown[]): unknown[] {
  return sources.map(siteIdIn).filter((v) => v !== undefined);
}

/**
 * The site a request acts on. Every `site_id` it names must be a UUID (`invalidCode`,
 * INVALID_REQUEST by default); the credential's strategy then decides: an API key's or an
 * origin's site is the tenant (any other → 403), a session may name a site its user is a member
 * of, with a role that has `permission` (lib/members/permissions.ts).
 */
export async function resolveSite(
  principal: Principal,
  requested: unknown[],
  permission: Permission,
  invalidCode?: ErrorCode,
): Promise<string | undefined> {
  return strategyOf(principal).tenant(principal, requestedSites(requested, invalidCode), permission);
}
