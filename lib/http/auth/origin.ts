import { ApiError } from '@/lib/core/errors';
import { requireOwnSite, type OriginPrincipal } from '@/lib/core/principal';
import { isUuid } from '@/lib/core/schemas';
import { isOriginAllowed } from '@/lib/sites/origins';
import { presentedKey } from './api-key';
import { type AuthStrategy } from './strategy';

/**
 * A keyless browser request to a public tracking route: its Origin must be registered for the
 * one site it names. Applies only where the route allows it (`browserOrigin`) and no key is sent.
 */
export const originStrategy: AuthStrategy<OriginPrincipal> = {
  kind: 'origin',
  applies: (req, policy) => policy.kind === 'apiKey' && !!policy.browserOrigin && !!req.headers.get('origin') && !presentedKey(req, policy.headers),
  async authenticate(req, _policy, raw) {
    const origin = req.headers.get('origin')!;
    const ids = [...new Set([raw.params, raw.query, await raw.body()].map(siteIdIn).filter((v) => v !== undefined))];
    const [siteId] = ids;
    if (ids.length !== 1 || typeof siteId !== 'string' || !isUuid(siteId)) {
      throw new ApiError('UNAUTHORIZED', 'Browser requests without an API key must name their site_id');
    }
    if (!(await isOriginAllowed(siteId.toLowerCase(), origin))) {
      throw new ApiError('UNAUTHORIZED', 'This origin is not registered for the site');
    }
    return { kind: 'origin', siteId: siteId.toLowerCase(), origin };
  },
  tenant: async (principal, requested) => requireOwnSite(principal, requested, 'This origin'),
  // Keyless browser calls share one bucket per site.
  limitSubject: (principal) => ({ bucket: `site:${principal.siteId}` }),
  // The browser sends Origin itself: documented as a header credential so tools see the keyless path as valid.
  schemes: {
    BrowserOrigin: {
      type: 'apiKey',
      in: 'header',
      name: 'Origin',
      description: 'No key: a browser on a domain registered for the `site_id` the request names (Allowed origins)',
    },
  },
  security: () => [{ BrowserOrigin: [] }],
  note: () => 'From a browser: no key and an `Origin` registered as the domain of the `site_id` it names.',
  errors: ['UNAUTHORIZED'],
};

/** The `site_id` a raw request part names, if it is an object that has one. */
export function siteIdIn(source: unknown): unknown {
  return source && typeof source === 'object' && !Array.isArray(source) && 'site_id' in source ? (source as { site_id: unknown }).site_id : undefined;
}
