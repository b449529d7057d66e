import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { POST as createRequirementRoute } from '@/app/api/agents/tools/requirements/create/route';
import { POST as createSegmentRoute } from '@/app/api/agents/tools/segments/create/route';
import { GET as visitorSites, POST as createSiteRoute } from '@/app/api/visitors/sites/route';
import { POST as createCommandRoute } from '@/app/sites/[site_id]/commands/route';
import { GET as getSite } from '@/app/sites/[site_id]/route';
import { GET as getStats } from '@/app/sites/[site_id]/stats/route';
import { GET as listSites } from '@/app/sites/route';
import { flushKeyUsage } from '@/lib/keys/usage';
import { authMatrix, presenters, type AuthMatrixOptions } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createTenant, createUser, type TestUser, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, useStandIn } from '@/tests/helpers/llm-standin';

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});
const tenants = () => ({ mine, other });
const toolRoutes: Record<string, typeof createLeadRoute> = {
  'leads/create': createLeadRoute,
  'segments/create': createSegmentRoute,
  'requirements/create': createRequirementRoute,
};

/** The shared auth cases of a read route of the /sites group, whose key travels as X-API-Key. */
const readMatrix = (send: AuthMatrixOptions['send'], o: Pick<AuthMatrixOptions, 'namesSite'> = {}) =>
  authMatrix({ tenants, present: presenters.xApiKey, write: false, send, ...o });
/** A new owner's site and a key of it. */
async function siteOfNewOwner() {
  const user = await createUser();
  const siteId = await createSite(user);
  return { siteId, key: (await createKey(user, siteId)).apiKey };
}
const createSiteAs = (user: TestUser, body: Record<string, unknown>) =>
  call(createSiteRoute, { method: 'POST', path: '/api/visitors/sites', headers: user.auth, body });

describe('POST /api/visitors/sites', () => {
  it('creates a site owned by the signed-in user', async () => {
    const user = await createUser();
    const res = await createSiteAs(user, { name: 'Shop', domain: 'Shop.Example.com' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      data: { id: expect.any(String), name: 'Shop', domain: 'shop.example.com', created_at: expect.any(String) },
    });
    expect(new Date(res.body.data.created_at).toISOString()).toBe(res.body.data.created_at);
    const list = await call(visitorSites, { path: '/api/visitors/sites', headers: user.auth });
    expect(list.body.data.map((s: { id: string }) => s.id)).toEqual([res.body.data.id]);
  });

  it.each([
    ['https://shop.example/', 'shop.example'],
    ['HTTPS://Shop.Example.com:443/path?q=1', 'shop.example.com'],
    ['shop.example/', 'shop.example'],
    ['http://localhost:3000/', 'localhost:3000'],
  ])('keeps the host of a pasted %s', async (domain, host) => {
    const user = await createUser();
    const res = await createSiteAs(user, { name: 'Shop', domain });
    expect(res.status).toBe(201);
    expect(res.body.data.domain).toBe(host);
  });

  it('names the domain field when it is no host name', async () => {
    const user = await createUser();
    const res = await createSiteAs(user, { name: 'Shop', domain: 'https://' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details.issues).toEqual([expect.objectContaining({ path: 'body.domain' })]);
  });

  it.each([
    [{}, 'missing name'],
    [{ name: '' }, 'empty name'],
    [{ name: 'x', domain: 'not a host' }, 'a domain that is no host name'],
    [{ name: 'x', owner_id: '00000000-0000-4000-8000-000000000000' }, 'unknown field'],
  ])('refuses %j (%s) with 400', async (body, _why) => {
    const user = await createUser();
    const res = await createSiteAs(user, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it('requires a session; an API key is refused', async () => {
    const noAuth = await call(createSiteRoute, { method: 'POST', path: '/api/visitors/sites', body: { name: 'x' } });
    expect(noAuth.status).toBe(401);
    const withKey = await call(createSiteRoute, {
      method: 'POST',
      path: '/api/visitors/sites',
      headers: presenters.bearer(mine.key),
      body: { name: 'x' },
    });
    expect(withKey.status).toBe(401);
  });
});

describe('GET /api/visitors/sites', () => {
  it('returns one site by ?id=, with settings', async () => {
    const res = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { id: mine.siteId } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: mine.siteId, name: 'Test site', settings: {} });
  });

  it('returns the visitors of a site by ?site_id= (paginated); both id and site_id is a 400', async () => {
    const res = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { site_id: mine.siteId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: expect.any(Array),
      meta: { total: res.body.data.length, limit: 20, offset: 0, has_more: false },
    });
    const both = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { id: mine.siteId, site_id: mine.siteId } });
    expect(both.status).toBe(400);
  });

  it("hides another user's site: 404 by ?id=, 403 by ?site_id=", async () => {
    const byId = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { id: other.siteId } });
    expect(byId.status).toBe(404);
    expect(byId.body.error.code).toBe('NOT_FOUND');
    const bySiteId = await call(visitorSites, { path: '/api/visitors/sites', headers: mine.user.auth, query: { site_id: other.siteId } });
    expect(bySiteId.status).toBe(403);
  });
});

describe('GET /sites', () => {
  readMatrix((headers) => call(listSites, { path: '/sites', headers }), { namesSite: false });

  it("lists only the key's own site", async () => {
    const res = await call(listSites, { path: '/sites', headers: presenters.xApiKey(mine.readKey) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: [{ id: mine.siteId, name: 'Test site', domain: null, created_at: expect.any(String) }],
    });
  });

  it('does not accept the key as a Bearer token (the /sites group uses X-API-Key)', async () => {
    const res = await call(listSites, { path: '/sites', headers: presenters.bearer(mine.key) });
    expect(res.status).toBe(401);
  });
});

describe('GET /sites/{site_id}', () => {
  readMatrix((headers, siteId) => call(getSite, { path: `/sites/${siteId}`, params: { site_id: siteId }, headers }));

  it('returns the site with settings', async () => {
    const res = await call(getSite, { path: `/sites/${mine.siteId}`, params: { site_id: mine.siteId }, headers: presenters.xApiKey(mine.key) });
    expect(res.body.data).toEqual({ id: mine.siteId, name: 'Test site', domain: null, created_at: expect.any(String), settings: {} });
  });

  it('answers 400 for a site_id that is not a UUID', async () => {
    const res = await call(getSite, { path: '/sites/nope', params: { site_id: 'nope' }, headers: presenters.xApiKey(mine.key) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('GET /sites/{site_id}/stats', () => {
  readMatrix((headers, siteId) => call(getStats, { path: `/sites/${siteId}/stats`, params: { site_id: siteId }, headers }));

  it('counts keys, commands and recorded requests of this site only', async () => {
    const { siteId, key } = await siteOfNewOwner();
    const headers = presenters.xApiKey(key);
    // Commands are carried out by the CMO agent: they need a model (a local stand-in); none runs here.
    const standIn = await startLlmStandIn();
    const restore = useStandIn(standIn);
    try {
      for (let i = 0; i < 3; i++) {
        const created = await call(createCommandRoute, {
          method: 'POST',
          path: `/sites/${siteId}/commands`,
          params: { site_id: siteId },
          headers,
          body: { task: `t${i}` },
        });
        expect(created.status).toBe(201);
      }
    } finally {
      restore();
      await standIn.close();
    }
    await flushKeyUsage();
    const res = await call(getStats, { path: `/sites/${siteId}/stats`, params: { site_id: siteId }, headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      site_id: siteId,
      api_keys: { total: 1, active: 1, revoked: 0, expired: 0 },
      api_requests: { total: 3, last_24h: 3 },
      commands: { total: 3, by_status: { pending: 3 } },
    });
    // The tenant with revoked and expired keys sees them counted as such.
    const theirs = await call(getStats, {
      path: `/sites/${mine.siteId}/stats`,
      params: { site_id: mine.siteId },
      headers: presenters.xApiKey(mine.key),
    });
    expect(theirs.body.data.api_keys).toEqual({ total: 4, active: 2, revoked: 1, expired: 1 });
  });

  it('counts the CRM records of this site by status', async () => {
    const { siteId, key } = await siteOfNewOwner();
    const bearer = presenters.bearer(key);
    const tool = (path: string, body: object) =>
      call(toolRoutes[path], { method: 'POST', path: `/api/agents/tools/${path}`, headers: bearer, body: { site_id: siteId, ...body } });
    await tool('leads/create', { name: 'Ann', email: 'ann@example.com' });
    await tool('leads/create', { name: 'Bob', email: 'bob@example.com', status: 'qualified' });
    await tool('segments/create', { name: 'SMB', is_active: false });
    await tool('requirements/create', { title: 'Grow signups', status: 'in-progress' });
    // Another site's records are not counted.
    await call(toolRoutes['leads/create'], {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: presenters.bearer(other.key),
      body: { site_id: other.siteId, name: 'Eve', email: 'eve@example.com' },
    });
    const res = await call(getStats, { path: `/sites/${siteId}/stats`, params: { site_id: siteId }, headers: presenters.xApiKey(key) });
    expect(res.body.data).toMatchObject({
      leads: { total: 2, by_status: { new: 1, qualified: 1 } },
      segments: { total: 1, active: 0 },
      requirements: { total: 1, by_status: { 'in-progress': 1 } },
    });
  });
});
