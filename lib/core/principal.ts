import { ApiError } from './errors';

/**
 * Who is calling, as every layer sees it once a credential has been checked. The HTTP layer's
 * auth strategies produce principals; domains (tools, agents, workflows) read them.
 */
export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/** A signed-in member's role on a site, highest first (what it allows: lib/members/permissions.ts). */
export const SITE_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type SiteRole = (typeof SITE_ROLES)[number];

/** A site's request limits (its plan): per minute over all its keys, and in flight at once. */
export interface PlanLimits {
  perMinute: number;
  concurrent: number;
}

export type ApiKeyPrincipal = {
  kind: 'apiKey';
  keyId: string;
  siteId: string;
  scopes: Scope[];
  /** The site's plan limits (Basic when absent). */
  limits?: PlanLimits;
};
export type SessionPrincipal = {
  kind: 'session';
  user: { id: string; email: string; name: string | null };
  /** The session the credential names (a row of `user_sessions`), when it came from a session token or cookie. */
  sessionId?: string;
};
/**
 * What a platform key may do: capability scopes instead of read/write. A generated app gets a
 * key with the capabilities it needs, nothing more.
 */
export const CAPABILITIES = ['leads.read', 'leads.write', 'tracking.event.write', 'email.send', 'email.send.test-only', 'db.migrate'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** A platform key: bound to one site and one generated app (tenant schema `app_<short id>`). */
export type PlatformKeyPrincipal = {
  kind: 'platformKey';
  keyId: string;
  siteId: string;
  appId: string;
  /** The app's tenant schema, `app_<short id>`. */
  appSchema: string;
  capabilities: Capability[];
  /**
   * A revoked or expired key is still recognised (its calls go to the app's audit log), then
   * refused with 401 before anything else runs: routes only ever see `active`.
   */
  status: 'active' | 'revoked' | 'expired';
  limits?: PlanLimits;
};
export type OriginPrincipal = { kind: 'origin'; siteId: string; origin: string };
export type PublicPrincipal = { kind: 'public' };
export type Principal = ApiKeyPrincipal | PlatformKeyPrincipal | OriginPrincipal | SessionPrincipal | PublicPrincipal;

/**
 * A credential bound to one site (an API key, a registered origin) acts on that site only: any
 * other `site_id` the request names is 403.
 */
export function requireOwnSite(principal: { siteId: string }, requested: string[], credential = 'This API key'): string {
  if (requested.some((id) => id !== principal.siteId)) {
    throw new ApiError('FORBIDDEN', `${credential} does not belong to the requested site`);
  }
  return principal.siteId;
}

export function requireScope(principal: ApiKeyPrincipal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new ApiError('FORBIDDEN', `This API key lacks the ${scope} scope`);
  }
}
