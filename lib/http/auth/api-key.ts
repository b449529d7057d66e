import { hashApiKey, isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { requireOwnSite, requireScope, type ApiKeyPrincipal, type Scope } from '@/lib/core/principal';
import { findKeyByHash } from '@/lib/keys/service';
import { bearerOf, type AuthPolicy, type AuthStrategy, type KeyHeader } from './strategy';

const HEADER_LABEL: Record<KeyHeader, string> = {
  'x-api-key': 'X-API-Key',
  'x-sa-api-key': 'X-SA-API-KEY',
  bearer: 'Authorization: Bearer',
};

const HEADER_SCHEME: Record<KeyHeader, string> = {
  'x-api-key': 'ApiKey',
  'x-sa-api-key': 'SaApiKey',
  bearer: 'Bearer',
};

const headersOf = (policy: AuthPolicy): readonly KeyHeader[] => (policy.kind === 'apiKey' ? policy.headers : []);

export function presentedKey(req: Request, headers: readonly KeyHeader[]): string | null {
  for (const header of headers) {
    const value = header === 'bearer' ? bearerOf(req) : req.headers.get(header)?.trim();
    if (value) return value;
  }
  return null;
}

/** The scope a route needs: its declared scope, else read for GET/HEAD and write otherwise. */
export function requiredScope(policy: AuthPolicy, method: string): Scope | undefined {
  if (policy.kind !== 'apiKey') return undefined;
  return policy.scope ?? (method === 'GET' || method === 'HEAD' ? 'read' : 'write');
}

/** The key in the headers the route names; its site is the tenant. Expiry and revocation act on the next request. */
export async function authenticateApiKey(req: Request, headers: readonly KeyHeader[]): Promise<ApiKeyPrincipal> {
  const key = presentedKey(req, headers);
  if (!key) {
    throw new ApiError('UNAUTHORIZED', `API key required (${headers.map((h) => HEADER_LABEL[h]).join(' or ')})`);
  }
  if (!isWellFormedApiKey(key)) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  const stored = await findKeyByHash(hashApiKey(key));
  if (!stored) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  if (stored.revokedAt) throw new ApiError('UNAUTHORIZED', 'API key has been revoked');
  if (stored.expiresAt.getTime() <= now()) throw new ApiError('UNAUTHORIZED', 'API key has expired');
  return { kind: 'apiKey', keyId: stored.id, siteId: stored.siteId, scopes: stored.scopes, limits: stored.limits };
}

/** A site's API key in the header(s) the route group uses (spec §5), with the scope the route needs. */
export const apiKeyStrategy: AuthStrategy<ApiKeyPrincipal> = {
  kind: 'apiKey',
  applies: () => true,
  async authenticate(req, policy) {
    const headers = headersOf(policy);
    const principal = await authenticateApiKey(req, headers).catch((error: unknown) => {
      // RFC 6750: a 401 where a bearer token is accepted names the scheme.
      if (error instanceof ApiError && headers.includes('bearer')) {
        throw new ApiError(error.code, error.message, error.details, { 'www-authenticate': 'Bearer' });
      }
      throw error;
    });
    return principal;
  },
  authorize: (principal, policy, method) => requireScope(principal, requiredScope(policy, method)!),
  tenant: async (principal, requested) => requireOwnSite(principal, requested),
  limitSubject: (principal) => ({ plan: { siteId: principal.siteId, limits: principal.limits }, bucket: `key:${principal.keyId}` }),
  usage: (principal) => ({ keyId: principal.keyId, siteId: principal.siteId }),
  schemes: {
    ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'API key (header names are case-insensitive: x-api-key works too)' },
    SaApiKey: { type: 'apiKey', in: 'header', name: 'X-SA-API-KEY', description: 'API key for visitor-session routes' },
    Bearer: { type: 'http', scheme: 'bearer', description: 'API key, or a session token on session routes' },
  },
  security: (policy) => [...new Set(headersOf(policy).map((h) => HEADER_SCHEME[h]))].map((name) => ({ [name]: [] })),
  note: (policy, method) => `Requires an API key with the \`${requiredScope(policy, method)}\` scope.`,
  errors: ['UNAUTHORIZED', 'FORBIDDEN'],
};
