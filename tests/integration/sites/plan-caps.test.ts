import { afterEach, describe, expect, it } from 'vitest';
import { POST as createKeyRoute } from '@/app/api/keys/route';
import { POST as createSecretRoute } from '@/app/api/secure-tokens/route';
import { POST as createAppRoute } from '@/app/api/sites/[site_id]/platform-apps/route';
import { POST as createSiteRoute } from '@/app/api/visitors/sites/route';
import { POST as createEndpointRoute } from '@/app/api/webhooks/route';
import { resetConfig } from '@/lib/core/config';
import { countLiveKeys } from '@/lib/keys/repo';
import { countApps } from '@/lib/platform/repo';
import { countSecureTokens } from '@/lib/secure-tokens/repo';
import { countSitesOfOwner, setSitePlan } from '@/lib/sites/repo';
import { countEndpoints } from '@/lib/webhooks/repo';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, ownerCall, type CallResult, type Tenant } from '@/tests/helpers/harness';

/**
 * Plan caps on what an account or a site holds: over the cap → 403 PLAN_LIMIT_REACHED in the
 * envelope, nothing written; parallel requests never pass a cap together; a larger plan holds more.
 */
afterEach(() => {
  delete process.env.PLAN_CAPS;
  resetConfig();
});

function useCaps(caps: Record<string, Record<string, number>>) {
  process.env.PLAN_CAPS = JSON.stringify(caps);
  resetConfig();
}

const burst = (n: number, send: (i: number) => Promise<CallResult>) => Promise.all(Array.from({ length: n }, (_, i) => send(i)));
const statuses = (results: CallResult[]) => results.map((r) => r.status).sort();

function expectRefused(results: CallResult[], cap: string, limit: number) {
  const refused = results.filter((r) => r.status === 403);
  expect(refused.length).toBeGreaterThan(0);
  for (const r of refused) {
    expect(r.body).toMatchObject({ success: false, error: { code: 'PLAN_LIMIT_REACHED', details: { cap, limit } } });
    expect(r.body.error.message).toMatch(new RegExp(`allows ${limit} `));
  }
}

/** A POST with the tenant's key (X-API-Key) naming its site. */
const postWithKey = (handler: Parameters<typeof call>[0], path: string, t: Tenant, body: Record<string, unknown>) =>
  call(handler, { method: 'POST', path, headers: presenters.xApiKey(t.key), body: { site_id: t.siteId, ...body } });

interface Case {
  cap: string;
  /** Creates one more of the thing (call `i` of a burst). */
  create: (t: Tenant, i: number) => Promise<CallResult>;
  /** How many the tenant holds now. */
  held: (t: Tenant) => Promise<number>;
}

const CASES: Case[] = [
  {
    cap: 'sites_per_account',
    create: (t, i) => call(createSiteRoute, { method: 'POST', path: '/api/visitors/sites', headers: t.user.auth, body: { name: `Site ${i}` } }),
    held: (t) => countSitesOfOwner(t.user.id),
  },
  {
    cap: 'api_keys_per_site',
    create: (t, i) =>
      call(createKeyRoute, { method: 'POST', path: '/api/keys', headers: t.user.auth, body: { site_id: t.siteId, name: `k${i}`, scopes: ['read'] } }),
    held: (t) => countLiveKeys(t.siteId),
  },
  {
    cap: 'webhook_endpoints_per_site',
    create: (t, i) => postWithKey(createEndpointRoute, '/api/webhooks', t, { url: `https://93.184.216.34/hook/${i}`, events: ['lead.created'] }),
    held: (t) => countEndpoints(t.siteId),
  },
  {
    cap: 'platform_apps_per_site',
    create: (t, i) => ownerCall(createAppRoute, t, 'platform-apps', { method: 'POST', body: { name: `app ${i}` } }),
    held: (t) => countApps(t.siteId),
  },
  {
    cap: 'secrets_per_site',
    create: (t, i) => postWithKey(createSecretRoute, '/api/secure-tokens', t, { type: 'api_key', identifier: `cap-${i}`, value: 's3cret' }),
    held: (t) => countSecureTokens(t.siteId),
  },
];

describe('plan caps', () => {
  for (const c of CASES) {
    describe(c.cap, () => {
      it('parallel requests fill the cap exactly; the rest answer 403 PLAN_LIMIT_REACHED and write nothing', async () => {
        const t = await createTenant();
        const before = await c.held(t);
        const limit = before + 3;
        useCaps({ basic: { [c.cap]: limit } });
        const results = await burst(8, (i) => c.create(t, i));
        expect(statuses(results)).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
        expectRefused(results, c.cap, limit);
        expect(await c.held(t)).toBe(limit);
        // Other tenants are not held back by this one's cap.
        const neighbour = await createTenant();
        expect((await c.create(neighbour, 100)).status).toBe(201);
      });

      it('a larger plan holds more', async () => {
        const t = await createTenant();
        const limit = (await c.held(t)) + 1;
        useCaps({ basic: { [c.cap]: limit }, pro: { [c.cap]: limit + 1 } });
        expect((await c.create(t, 1)).status).toBe(201);
        expect((await c.create(t, 2)).status).toBe(403);
        await setSitePlan(t.siteId, { plan: 'pro' });
        expect((await c.create(t, 3)).status).toBe(201);
        const over = await c.create(t, 4);
        expect(over.status).toBe(403);
        expect(over.body.error.details).toMatchObject({ cap: c.cap, plan: 'pro', limit: limit + 1 });
      });
    });
  }

  it('the defaults are documented figures: Basic allows 10 sites per account and 50 webhook endpoints per site', async () => {
    const { DEFAULT_PLAN_CAPS } = await import('@/lib/sites/plans');
    expect(DEFAULT_PLAN_CAPS.basic).toMatchObject({ sites_per_account: 10, webhook_endpoints_per_site: 50 });
  });
});
