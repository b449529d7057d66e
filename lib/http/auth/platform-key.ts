import { hashApiKey, isWellFormedApiKey, isWellFormedPlatformKey, PLATFORM_KEY_PREFIX } from '@/lib/auth/api-key-format';
import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { errorFields, log } from '@/lib/core/log';
import { requireOwnSite, type Capability, type PlatformKeyPrincipal } from '@/lib/core/principal';
import { appSchemaName, findPlatformKeyByHash, insertAuditEntry } from '@/lib/platform/service';
import { bearerOf, type AuthPolicy, type AuthStrategy } from './strategy';

const capabilitiesOf = (policy: AuthPolicy): readonly Capability[] | 'any' => (policy.kind === 'platformKey' ? policy.capabilities : []);
const bearerChallenge = { 'www-authenticate': 'Bearer' };
const unauthorized = (message: string) => new ApiError('UNAUTHORIZED', message, undefined, bearerChallenge);

/** The capability a call is recorded under: the first of the route's the key holds, else the first it needed; none for `any`. */
function capabilityUsed(principal: PlatformKeyPrincipal, policy: AuthPolicy): Capability | null {
  const needed = capabilitiesOf(policy);
  if (needed === 'any') return null;
  return needed.find((c) => principal.capabilities.includes(c)) ?? needed[0] ?? null;
}

/**
 * A generated app's platform key (`Authorization: Bearer sgp_pk_…`): bound to one site and one
 * app, carrying capabilities instead of read/write scopes. API keys are refused here, and
 * platform keys everywhere else (their prefix is not an API key's). Every call of a recognised
 * key — refused ones included (revoked, expired, missing capability, quota, bad input) — is
 * written to the app's audit log before the answer leaves.
 */
export const platformKeyStrategy: AuthStrategy<PlatformKeyPrincipal> = {
  kind: 'platformKey',
  applies: () => true,
  async authenticate(req) {
    const key = bearerOf(req);
    if (!key) throw unauthorized(`Platform key required (Authorization: Bearer ${PLATFORM_KEY_PREFIX}_…)`);
    if (isWellFormedApiKey(key)) throw unauthorized('API keys are not accepted by the platform API; use a platform key');
    if (!isWellFormedPlatformKey(key)) throw unauthorized('Invalid platform key');
    const stored = await findPlatformKeyByHash(hashApiKey(key));
    if (!stored) throw unauthorized('Invalid platform key');
    const status = stored.revokedAt ? 'revoked' : stored.expiresAt.getTime() <= now() ? 'expired' : 'active';
    return {
      kind: 'platformKey',
      keyId: stored.id,
      siteId: stored.siteId,
      appId: stored.appId,
      appSchema: appSchemaName(stored.appShortId),
      capabilities: stored.capabilities,
      status,
      limits: stored.limits,
    };
  },
  authorize(principal, policy) {
    if (principal.status !== 'active') throw unauthorized(`Platform key has ${principal.status === 'revoked' ? 'been revoked' : 'expired'}`);
    const needed = capabilitiesOf(policy);
    if (needed !== 'any' && !needed.some((c) => principal.capabilities.includes(c))) {
      throw new ApiError('FORBIDDEN', `This platform key lacks the ${needed.join(' or ')} capability`, { required: needed });
    }
  },
  tenant: async (principal, requested) => requireOwnSite(principal, requested, 'This platform key'),
  limitSubject: (principal) => ({ plan: { siteId: principal.siteId, limits: principal.limits }, bucket: `platform:${principal.keyId}` }),
  async audit(principal, call) {
    try {
      await insertAuditEntry({
        siteId: principal.siteId,
        appId: principal.appId,
        keyId: principal.keyId,
        requestId: call.requestId,
        method: call.method,
        route: call.route,
        capability: capabilityUsed(principal, call.policy),
        status: call.status,
        errorCode: call.errorCode,
      });
    } catch (error) {
      // The answer stands (the work is done); the lost entry is reported without request data.
      log.error('platform audit entry not written', { request_id: call.requestId, ...errorFields(error) });
    }
  },
  schemes: {
    PlatformKey: {
      type: 'http',
      scheme: 'bearer',
      description: `Platform key of a generated app (${PLATFORM_KEY_PREFIX}_…), with capability scopes`,
    },
  },
  security: () => [{ PlatformKey: [] }],
  note: (policy) => {
    const needed = capabilitiesOf(policy);
    return needed === 'any'
      ? 'Requires a platform key (any capability).'
      : `Requires a platform key with the ${needed.map((c) => `\`${c}\``).join(' or ')} capability.`;
  },
  errors: ['UNAUTHORIZED', 'FORBIDDEN'],
};
