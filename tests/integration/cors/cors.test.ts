import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listKeys } from '@/app/api/keys/route';
import { DELETE as removeOrigin } from '@/app/api/sites/[site_id]/origins/[origin_id]/route';
import { GET as listOrigins, POST as addOrigin } from '@/app/api/sites/[site_id]/origins/route';
import { GET as listSites } from '@/app/sites/route';
import { preflight } from '@/lib/http/cors';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createUser, ownerCall, type TestUser } from '@/tests/helpers/harness';
import { visitorTestRoute } from '@/tests/helpers/visitor-test-route';

// Test-only: a route declared like the public visitor-tracking routes, and its preflight.
const track = visitorTestRoute;
const OPTIONS = preflight(['POST']);

let owner: TestUser;
let siteId: string;
let otherSiteId: string;
let key: string;
beforeAll(async () => {
  owner = await createUser();
  siteId = await createSite(owner, 'Shop', 'shop.example.com');
  otherSiteId = await createSite(owner, 'Blog', 'blog.example.org');
  key = (await createKey(owner, siteId)).apiKey;
});

const send = (headers: Record<string, string>, site = siteId) =>
  call(track, { method: 'POST', path: '/test/track', headers, body: { site_id: site } });
const originPath = (id = siteId) => `/api/sites/${id}/origins`;

/** The origins API of a site, called by a signed-in user (the owner or a stranger). */
const addOriginAs = (user: TestUser, origin: unknown, site = siteId) =>
  ownerCall(addOrigin, { siteId: site, user }, 'origins', { method: 'POST', body: { origin } });
const listOriginsAs = (user: TestUser, site = siteId) => ownerCall(listOrigins, { siteId: site, user }, 'origins');
const removeOriginAs = (user: TestUser, id: string, site = siteId) =>
  ownerCall(removeOrigin, { siteId: site, user }, `origins/${id}`, { method: 'DELETE', params: { origin_id: id } });

function expectNoCors(res: { headers: Headers }) {
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
  expect(res.headers.get('access-control-allow-credentials')).toBeNull();
}

describe('CORS on a public browser route', () => {
  it.each(['https://shop.example.com', 'http://shop.example.com', 'https://www.shop.example.com'])(
    'accepts the site domain origin %s and grants CORS to it only, never with credentials',
    async (origin) => {
      const res = await send({ origin });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toContain('Origin');
      expect(res.headers.get('access-control-expose-headers')).toContain('x-ratelimit-remaining');
    },
  );

  it('accepts an extra allowed origin while it is registered', async () => {
    const added = await addOriginAs(owner, 'https://App.Partner.io/');
    expect(added.status).toBe(201);
    expect(added.body.data).toEqual({ id: expect.any(String), origin: 'https://app.partner.io', created_at: expect.any(String) });
    const ok = await send({ origin: 'https://app.partner.io' });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.partner.io');
    // Exact origin: another scheme or port of it is foreign.
    expect((await send({ origin: 'http://app.partner.io' })).status).toBe(401);
    expect((await send({ origin: 'https://app.partner.io:8443' })).status).toBe(401);

    const removed = await removeOriginAs(owner, added.body.data.id);
    expect(removed.body).toEqual({ success: true, message: 'Origin removed' });
    const gone = await send({ origin: 'https://app.partner.io' });
    expect(gone.status).toBe(401);
    expectNoCors(gone);
  });

  it.each([
    ['a foreign origin', { origin: 'https://evil.example.net' }],
    ['a look-alike origin', { origin: 'https://shop.example.com.evil.net' }],
    ['an origin with a path', { origin: 'https://shop.example.com/x' }],
    ['the literal null origin', { origin: 'null' }],
    ['no origin and no key', {}],
  ])('refuses %s with 401 and no CORS headers', async (_what, headers) => {
    const res = await send(headers as Record<string, string>);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', request_id: expect.any(String) } });
    expectNoCors(res);
  });

  it("refuses a site's origin naming another site", async () => {
    const res = await send({ origin: 'https://shop.example.com' }, otherSiteId);
    expect(res.status).toBe(401);
    expectNoCors(res);
  });

  it('serves server-to-server calls with a key and no Origin, without CORS headers', async () => {
    const res = await send(presenters.xSaApiKey(key));
    expect(res.status).toBe(200);
    expectNoCors(res);
  });
});

describe('preflight', () => {
  const ask = (origin?: string) =>
    call(OPTIONS, {
      method: 'OPTIONS',
      path: '/test/track',
      headers: { ...(origin ? { origin } : {}), 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });

  it('answers a registered origin with the methods and headers, without credentials', async () => {
    const res = await ask('https://shop.example.com');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('https://shop.example.com');
    expect(res.headers.get('access-control-allow-methods')).toBe('POST');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-request-id');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('access-control-max-age')).toBe('600');
  });

  it('grants nothing to a foreign or missing origin', async () => {
    for (const origin of ['https://evil.example.net', undefined]) {
      const res = await ask(origin);
      expect(res.status).toBe(204);
      expectNoCors(res);
      expect(res.headers.get('access-control-allow-methods')).toBeNull();
    }
  });
});

describe('every other route grants no CORS', () => {
  it('an API-key route ignores Origin: no CORS headers, and an Origin alone authenticates nothing', async () => {
    const withKey = await call(listSites, { path: '/sites', headers: { origin: 'https://shop.example.com', ...presenters.xApiKey(key) } });
    expect(withKey.status).toBe(200);
    expectNoCors(withKey);
    const originOnly = await call(listSites, { path: '/sites', headers: { origin: 'https://shop.example.com' } });
    expect(originOnly.status).toBe(401);
    expectNoCors(originOnly);
  });

  it('a session route sends no CORS headers to a cross-origin caller', async () => {
    const res = await call(listKeys, {
      path: '/api/keys',
      query: { site_id: siteId },
      headers: { origin: 'https://shop.example.com', ...owner.auth },
    });
    expect(res.status).toBe(200);
    expectNoCors(res);
  });
});

describe('allowed origins API', () => {
  it('lists, adds (normalized), refuses duplicates and bad origins, removes', async () => {
    const user = await createUser();
    const site = await createSite(user, 'Store', 'store.example.com');
    const add = (origin: unknown) => addOriginAs(user, origin, site);
    expect((await add('https://a.example.com')).status).toBe(201);
    expect((await add('http://localhost:3000')).status).toBe(201);
    const dup = await add('HTTPS://A.EXAMPLE.COM');
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('CONFLICT');
    for (const bad of ['a.example.com', 'ftp://a.example.com', 'https://a.example.com/path', 'https://u:p@a.example.com', '', 42]) {
      const res = await add(bad);
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    const list = await listOriginsAs(user, site);
    expect(list.body).toEqual({
      success: true,
      data: [
        { id: expect.any(String), origin: 'https://a.example.com', created_at: expect.any(String) },
        { id: expect.any(String), origin: 'http://localhost:3000', created_at: expect.any(String) },
      ],
    });
    const id = list.body.data[0].id;
    const del = () => removeOriginAs(user, id, site);
    expect((await del()).status).toBe(200);
    const again = await del();
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it("keeps sites apart: another user's site is 403, another site's origin id is 404", async () => {
    const stranger = await createUser();
    const list = await listOriginsAs(stranger);
    expect(list.status).toBe(403);
    const add = await addOriginAs(stranger, 'https://x.example.com');
    expect(add.status).toBe(403);

    const mine = await addOriginAs(owner, 'https://keep.example.com');
    const strangerSite = await createSite(stranger);
    const cross = await removeOriginAs(stranger, mine.body.data.id, strangerSite);
    expect(cross.status).toBe(404);
    const still = await listOriginsAs(owner);
    expect(still.body.data.map((o: { origin: string }) => o.origin)).toContain('https://keep.example.com');
  });

  it('requires a session: API keys and anonymous calls get 401', async () => {
    expect((await call(listOrigins, { path: originPath(), params: { site_id: siteId } })).status).toBe(401);
    expect((await call(listOrigins, { path: originPath(), params: { site_id: siteId }, headers: presenters.bearer(key) })).status).toBe(401);
  });
});
