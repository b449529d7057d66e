import { hashApiKey, isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { sessionCookieOf, verifySessionToken } from '@/lib/auth/session';
import { findKeyByHash } from '@/lib/keys/repo';
import type { Scope } from '@/lib/keys/schema';
import { isOriginAllowed } from '@/lib/sites/origins';
import type { PlanLimits } from '@/lib/sites/plans';
import { findUserById } from '@/lib/users/repo';
import type { User } from '@/lib/users/schema';
import { ApiError } from '@/lib/core/errors';
import { isUuid } from '@/lib/core/schemas';

/** Where a route accepts an API key. Each route group of the spec names its own header(s). */
export type KeyHeader = 'x-api-key' | 'x-sa-api-key' | 'bearer';

export type AuthPolicy =
  | { kind: 'public' }
  | { kind: 'session' }
  | {
      kind: 'apiKey';
      headers: readonly KeyHeader[];
      scope?: Scope;
      /**
       * Public browser-tracking routes only: without a key, a request whose Origin is registered
       * for the `site_id` it names is accepted for that site (and gets CORS headers).
       */
      browserOrigin?: boolean;
    };

export type ApiKeyPrincipal = {
  kind: 'apiKey';
  keyId: string;
  siteId: string;
  scopes: Scope[];
  /** The site's plan limits (Basic when absent). */
  limits?: PlanLimits;
};
export type SessionPrincipal = { kind: 'session'; user: User };
export type OriginPrincipal = { kind: 'origin'; siteId: string; origin: string };
export type PublicPrincipal = { kind: 'public' };
export type Principal = ApiKeyPrincipal | OriginPrincipal | SessionPrincipal | PublicPrincipal;

export type PrincipalFor<A extends AuthPolicy> = A extends { kind: 'apiKey'; browserOrigin: true }
  ? ApiKeyPrincipal | OriginPrincipal
  : A extends { kind: 'apiKey' }
  ? ApiKeyPrincipal
  : A extends { kind: 'session' }
    ? SessionPrincipal
    : PublicPrincipal;

const HEADER_LABEL: Record<KeyHeader, string> = {
  'x-api-key': 'X-API-Key',
  'x-sa-api-key': 'X-SA-API-KEY',
  bearer: 'Authorization: Bearer',
};

function bearerOf(req: Request): string | null {
  const value = req.headers.get('authorization');
  const match = value && /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match ? match[1] : null;
}

export function presentedKey(req: Request, headers: readonly KeyHeader[]): string | null {
  for (const header of headers) {
    const value = header === 'bearer' ? bearerOf(req) : req.headers.get(header)?.trim();
    if (value) return value;
  }
  return null;
}

export async function authenticateApiKey(req: Request, headers: readonly KeyHeader[]): Promise<ApiKeyPrincipal> {
  const key = presentedKey(req, headers);
  if (!key) {
    throw new ApiError('UNAUTHORIZED', `API key required (${headers.map((h) => HEADER_LABEL[h]).join(' or ')})`);
  }
  if (!isWellFormedApiKey(key)) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  const stored = await findKeyByHash(hashApiKey(key));
  if (!stored) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  if (stored.revokedAt) throw new ApiError('UNAUTHORIZED', 'API key has been revoked');
  if (stored.expiresAt.getTime() <= Date.now()) throw new ApiError('UNAUTHORIZED', 'API key has expired');
  return { kind: 'apiKey', keyId: stored.id, siteId: stored.siteId, scopes: stored.scopes, limits: stored.limits };
}

/** A keyless browser request: its Origin must be registered for the one site it names. */
export async function authenticateOrigin(origin: string, requestedSites: unknown[]): Promise<OriginPrincipal> {
  const ids = [...new Set(requestedSites.filter((v) => v !== undefined))];
  const [siteId] = ids;
  if (ids.length !== 1 || typeof siteId !== 'string' || !isUuid(siteId)) {
    throw new ApiError('UNAUTHORIZED', 'Browser requests without an API key must name their site_id');
  }
  if (!(await isOriginAllowed(siteId.toLowerCase(), origin))) {
    throw new ApiError('UNAUTHORIZED', 'This origin is not registered for the site');
  }
  return { kind: 'origin', siteId: siteId.toLowerCase(), origin };
}

export function requireScope(principal: ApiKeyPrincipal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) {
    throw new ApiError('FORBIDDEN', `This API key lacks the ${scope} scope`);
  }
}

/** Session from `Authorization: Bearer <SESSION_TOKEN>` or the console's session cookie. */
export async function authenticateSession(req: Request): Promise<SessionPrincipal> {
  const bearer = bearerOf(req);
  if (bearer && isWellFormedApiKey(bearer)) {
    throw new ApiError('UNAUTHORIZED', 'API keys are not accepted here; sign in and use a session token');
  }
  const token = bearer ?? sessionCookieOf(req.headers.get('cookie'));
  if (!token) throw new ApiError('UNAUTHORIZED', 'Sign-in required (session cookie or Authorization: Bearer <SESSION_TOKEN>)');
  const userId = await verifySessionToken(token);
  const user = userId ? await findUserById(userId) : undefined;
  if (!user) throw new ApiError('UNAUTHORIZED', 'Session is invalid or has expired');
  return { kind: 'session', user };
}
