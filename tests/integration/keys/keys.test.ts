import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { POST as createLeadRoute } from '@/app/api/agents/tools/leads/create/route';
import { DELETE as revokeRoute, GET as listRoute, PATCH as updateRoute, POST as createRoute } from '@/app/api/keys/route';
import { GET as listSites } from '@/app/sites/route';
import { isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { getDb } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { flushKeyUsage } from '@/lib/keys/usage';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createTenant, createUser, type Tenant, type TestUser } from '@/tests/helpers/harness';

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const create = (user: TestUser | { auth: Record<string, string> }, body: unknown) =>
  call(createRoute, { method: 'POST', path: '/api/keys', headers: user.auth, body });

describe('POST /api/keys', () => {
  it('returns the full key once, stores only its hash', async () => {
    const res = await create(mine.user, { name: 'ci', scopes: ['read'], site_id: mine.siteId, metadata: { team: 'ops' } });
    expect(res.status).toBe(201);
    const { apiKey, id, prefix, expires_at } = res.body.data;
    expect(prefix).toBe('key');
    expect(apiKey).toMatch(/^key_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(apiKey)).toBe(true);
    const days = (new Date(expires_at).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThanOrEqual(90);

    // Inspect the table: no column holds the key or any long part of it.
    const [row] = await rows<Record<string, unknown>>(sql`select * from api_keys where id = ${id}`);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(apiKey);
    expect(stored).not.toContain(apiKey.slice(4, 20));
    expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.display_suffix).toBe(apiKey.slice(-4));
  });

  it('honours prefix and expirationDays', async () => {
    const res = await create(mine.user, { name: 'p', scopes: ['read', 'write'], site_id: mine.siteId, prefix: 'sgp2', expirationDays: 1 });
    expect(res.status).toBe(201);
    expect(res.body.data.apiKey.startsWith('sgp2_')).toBe(true);
    const hours = (new Date(res.body.data.expires_at).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
  });

  it.each([
    [{ scopes: ['read'] }, 'name'],
    [{ name: 'x', scopes: [] }, 'scopes'],
    [{ name: 'x', scopes: ['admin'] }, 'scopes'],
    [{ name: 'x', scopes: ['read', 'read'] }, 'scopes'],
    [{ name: 'x', scopes: ['read'], expirationDays: 0 }, 'expirationDays'],
    [{ name: 'x', scopes: ['read'], expirationDays: 366 }, 'expirationDays'],
    [{ name: 'x', scopes: ['read'], expirationDays: 1.5 }, 'expirationDays'],
    [{ name: 'x', scopes: ['read'], prefix: 'Key' }, 'prefix'],
    [{ name: 'x', scopes: ['read'], prefix: 'a_b' }, 'prefix'],
    [{ name: 'x', scopes: ['read'], prefix: 'abcdefghijklmnopq' }, 'prefix'],
    [{ name: 'x', scopes: ['read'], apiKey: 'mine' }, ''],
  ])('refuses %j with 400 naming %s, and stores nothing', async (partial, field) => {
    const before = await rows<{ n: number }>(sql`select count(*)::int as n from api_keys where site_id = ${mine.siteId}`);
    const res = await create(mine.user, { site_id: mine.siteId, ...partial });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    expect(res.body.error.message).toContain(field);
    const after = await rows<{ n: number }>(sql`select count(*)::int as n from api_keys where site_id = ${mine.siteId}`);
    expect(after[0].n).toBe(before[0].n);
  });

  it('refuses a site the user does not own (403) and a user_id that is not the caller (403)', async () => {
    const foreign = await create(mine.user, { name: 'x', scopes: ['read'], site_id: other.siteId });
    expect(foreign.status).toBe(403);
    expect(foreign.body.error.code).toBe('FORBIDDEN');
    const impersonate = await create(mine.user, { name: 'x', scopes: ['read'], site_id: mine.siteId, user_id: other.user.id });
    expect(impersonate.status).toBe(403);
    const self = await create(mine.user, { name: 'x', scopes: ['read'], site_id: mine.siteId, user_id: mine.user.id });
    expect(self.status).toBe(201);
  });

  it('accepts only a session: none, an API key, or a forged token get 401', async () => {
    const body = { name: 'x', scopes: ['read'], site_id: mine.siteId };
    for (const auth of [{}, presenters.bearer(mine.key), presenters.xApiKey(mine.key), { authorization: 'Bearer not.a.token' }]) {
      const res = await create({ auth }, body);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    }
  });

  it('accepts the session as the console cookie too', async () => {
    const res = await create(
      { auth: { cookie: `next-auth.session-token=${mine.user.token}` } },
      { name: 'c', scopes: ['read'], site_id: mine.siteId },
    );
    expect(res.status).toBe(201);
  });
});

describe('GET /api/keys', () => {
  it('lists keys with status and without any secret', async () => {
    const res = await call(listRoute, { path: '/api/keys', headers: mine.user.auth, query: { site_id: mine.siteId } });
    expect(res.status).toBe(200);
    const statuses = res.body.data.map((k: { status: string }) => k.status);
    expect(statuses).toContain('active');
    expect(statuses).toContain('revoked');
    expect(statuses).toContain('expired');
    const text = JSON.stringify(res.body);
    for (const key of [mine.key, mine.readKey, mine.revokedKey, mine.expiredKey]) expect(text).not.toContain(key.slice(4, 20));
    for (const k of res.body.data) {
      expect(Object.keys(k).sort()).toEqual(
        ['created_at', 'display', 'expires_at', 'id', 'last_used_at', 'metadata', 'name', 'prefix', 'revoked_at', 'scopes', 'status'].sort(),
      );
    }
  });

  it("refuses another user's site (403) and a missing site_id (400)", async () => {
    expect((await call(listRoute, { path: '/api/keys', headers: mine.user.auth, query: { site_id: other.siteId } })).status).toBe(403);
    expect((await call(listRoute, { path: '/api/keys', headers: mine.user.auth })).status).toBe(400);
  });

  it('shows last_used_at once a key has been used', async () => {
    const user = await createUser();
    const siteId = await createSite(user);
    const { id, apiKey } = await createKey(user, siteId, ['read']);
    await call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) });
    await flushKeyUsage();
    const res = await call(listRoute, { path: '/api/keys', headers: user.auth, query: { site_id: siteId } });
    const key = res.body.data.find((k: { id: string }) => k.id === id);
    expect(key.last_used_at).not.toBeNull();
    const usage = await rows<{ route: string; status: number; method: string }>(
      sql`select route, status, method from api_key_usage where key_id = ${id}`,
    );
    expect(usage).toEqual([{ route: '/sites', status: 200, method: 'GET' }]);
  });
});

describe('DELETE /api/keys', () => {
  it('revokes: the very next request with that key gets 401', async () => {
    const user = await createUser();
    const siteId = await createSite(user);
    const { id, apiKey } = await createKey(user, siteId);
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) })).status).toBe(200);
    const res = await call(revokeRoute, { method: 'DELETE', path: '/api/keys', headers: user.auth, query: { id, site_id: siteId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'API key revoked' });
    const after = await call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) });
    expect(after.status).toBe(401);
    expect(after.body.error.message).toMatch(/revoked/);
    const list = await call(listRoute, { path: '/api/keys', headers: user.auth, query: { site_id: siteId } });
    expect(list.body.data[0].status).toBe('revoked');
  });

  it('answers 404 NOT_FOUND for an unknown id or a key of another site', async () => {
    const user = await createUser();
    const [a, b] = [await createSite(user), await createSite(user)];
    const { id } = await createKey(user, a);
    for (const query of [
      { id: '6f1c7a43-0b7e-4d38-9d1e-2a0b1b1f9e11', site_id: a },
      { id, site_id: b },
    ]) {
      const res = await call(revokeRoute, { method: 'DELETE', path: '/api/keys', headers: user.auth, query });
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it("cannot revoke keys of another user's site", async () => {
    const res = await call(revokeRoute, {
      method: 'DELETE',
      path: '/api/keys',
      headers: mine.user.auth,
      query: { id: other.user.id, site_id: other.siteId },
    });
    expect(res.status).toBe(403);
  });
});

describe('PATCH /api/keys', () => {
  const update = (user: TestUser, body: unknown) => call(updateRoute, { method: 'PATCH', path: '/api/keys', headers: user.auth, body });
  const createLead = (apiKey: string, siteId: string) =>
    call(createLeadRoute, {
      method: 'POST',
      path: '/api/agents/tools/leads/create',
      headers: presenters.bearer(apiKey),
      body: { site_id: siteId, name: 'Ada', email: 'ada@example.com' },
    });

  it('lowers a key to read-only: its next write is 403, its reads still work, and the change is stored', async () => {
    const user = await createUser();
    const siteId = await createSite(user);
    const { id, apiKey } = await createKey(user, siteId);
    const created = await createLead(apiKey, siteId);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await update(user, { id, site_id: siteId, scopes: ['read'] });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, scopes: ['read'], status: 'active' });
    const refused = await createLead(apiKey, siteId);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) })).status).toBe(200);
    const [row] = await rows<{ scopes: string[] }>(sql`select scopes from api_keys where id = ${id}`);
    expect(row.scopes).toEqual(['read']);
  });

  it("refuses a revoked key (409), an unknown id or another site's key (404), bad scopes (400) and another user's site (403)", async () => {
    const user = await createUser();
    const [a, b] = [await createSite(user), await createSite(user)];
    const { id } = await createKey(user, a);
    const { id: revoked } = await createKey(user, a);
    await call(revokeRoute, { method: 'DELETE', path: '/api/keys', headers: user.auth, query: { id: revoked, site_id: a } });
    const cases: [unknown, number, string][] = [
      [{ id: revoked, site_id: a, scopes: ['read'] }, 409, 'CONFLICT'],
      [{ id: '6f1c7a43-0b7e-4d38-9d1e-2a0b1b1f9e11', site_id: a, scopes: ['read'] }, 404, 'NOT_FOUND'],
      [{ id, site_id: b, scopes: ['read'] }, 404, 'NOT_FOUND'],
      [{ id, site_id: a, scopes: [] }, 400, 'INVALID_REQUEST'],
      [{ id, site_id: a, scopes: ['read', 'read'] }, 400, 'INVALID_REQUEST'],
      [{ id, site_id: a, scopes: ['admin'] }, 400, 'INVALID_REQUEST'],
      [{ id, site_id: a, scopes: ['read'], name: 'renamed' }, 400, 'INVALID_REQUEST'],
      [{ id, site_id: other.siteId, scopes: ['read'] }, 403, 'FORBIDDEN'],
    ];
    for (const [body, status, code] of cases) {
      const res = await update(user, body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body).toMatchObject({ success: false, error: { code } });
    }
    const [row] = await rows<{ scopes: string[] }>(sql`select scopes from api_keys where id = ${id}`);
    expect(row.scopes).toEqual(['read', 'write']);
  });
});

describe('expiry', () => {
  it('a key whose expires_at has passed gets 401 and is listed as expired', async () => {
    const user = await createUser();
    const siteId = await createSite(user);
    const { id, apiKey } = await createKey(user, siteId);
    const db = await getDb();
    await db.execute(sql`update api_keys set expires_at = now() - interval '1 millisecond' where id = ${id}`);
    const res = await call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
    const list = await call(listRoute, { path: '/api/keys', headers: user.auth, query: { site_id: siteId } });
    expect(list.body.data[0].status).toBe('expired');
  });
});
