import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as keyUsageRoute } from '@/app/api/keys/[id]/usage/route';
import { GET as getSite } from '@/app/sites/[site_id]/route';
import { GET as listSites } from '@/app/sites/route';
import { getDb } from '@/lib/db/client';
import { flushKeyUsage, recordKeyUsage } from '@/lib/keys/usage';
import { pruneExpiredRows } from '@/lib/worker/retention';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createKey, createSite, createTenant, type Tenant } from '@/tests/helpers/harness';

let mine: Tenant;
let other: Tenant;
beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const usage = (keyId: string, query: Record<string, string | number | undefined>, headers = mine.user.auth) =>
  call(keyUsageRoute, { path: `/api/keys/${keyId}/usage`, params: { id: keyId }, query, headers });

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/keys/{id}/usage', () => {
  it('reports requests per day, errors, the last use and the last status of one key', async () => {
    const key = await createKey(mine.user, mine.siteId, ['read']);
    const other = await createKey(mine.user, mine.siteId, ['read']);
    for (let i = 0; i < 3; i++) await call(listSites, { path: '/sites', headers: presenters.xApiKey(key.apiKey) });
    await call(listSites, { path: '/sites', headers: presenters.xApiKey(other.apiKey) });
    const missing = '00000000-0000-4000-8000-000000000000';
    await call(getSite, { path: `/sites/${missing}`, params: { site_id: missing }, headers: presenters.xApiKey(key.apiKey) }); // 403
    await flushKeyUsage();

    const res = await usage(key.id, { site_id: mine.siteId, days: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({
      key_id: key.id,
      site_id: mine.siteId,
      from: expect.any(String),
      to: today(),
      retention_days: 90,
      total_requests: 4,
      last_used_at: expect.any(String),
      last_status: 403,
      days: [
        { date: expect.any(String), requests: 0, errors: 0 },
        { date: expect.any(String), requests: 0, errors: 0 },
        { date: today(), requests: 4, errors: 1 },
      ],
    });
    expect(Date.now() - Date.parse(res.body.data.last_used_at)).toBeLessThan(60_000);
  });

  it('reports a key that was never used with zeros and nulls, 30 days by default', async () => {
    const key = await createKey(mine.user, mine.siteId, ['read']);
    const res = await usage(key.id, { site_id: mine.siteId });
    expect(res.body.data).toMatchObject({ total_requests: 0, last_used_at: null, last_status: null });
    expect(res.body.data.days).toHaveLength(30);
  });

  it.each([[0], [366], ['x']])('refuses days=%s with 400', async (days) => {
    const key = await createKey(mine.user, mine.siteId, ['read']);
    const res = await usage(key.id, { site_id: mine.siteId, days });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });

  it("keeps sites apart: another user's site is 403, another site's key is 404, an API key is 401", async () => {
    const theirKey = await createKey(other.user, other.siteId, ['read']);
    expect((await usage(theirKey.id, { site_id: other.siteId })).status).toBe(403);
    const wrongSite = await usage(theirKey.id, { site_id: mine.siteId });
    expect(wrongSite.status).toBe(404);
    expect(wrongSite.body.error).toMatchObject({ code: 'NOT_FOUND', message: 'API key not found' });
    expect((await usage(theirKey.id, { site_id: other.siteId }, presenters.bearer(other.key))).status).toBe(401);
    expect((await usage('not-a-uuid', { site_id: mine.siteId })).status).toBe(400);
  });
});

describe('retention', () => {
  it('the retention job prunes usage rows older than KEY_USAGE_RETENTION_DAYS and keeps last use and status on the key', async () => {
    const key = await createKey(mine.user, mine.siteId, ['read']);
    await call(listSites, { path: '/sites', headers: presenters.xApiKey(key.apiKey) });
    await flushKeyUsage();
    const db = await getDb();
    await db.execute(sql`insert into api_key_usage (key_id, site_id, method, route, status, created_at)
      values (${key.id}, ${mine.siteId}, 'GET', '/sites', 200, now() - interval '91 days'),
             (${key.id}, ${mine.siteId}, 'GET', '/sites', 200, now() - interval '89 days')`);
    expect((await pruneExpiredRows()).api_key_usage).toBeGreaterThanOrEqual(1);
    const left = (await db.execute(sql`select count(*)::int as n from api_key_usage where key_id = ${key.id}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(left.rows[0].n).toBe(2);
    const res = await usage(key.id, { site_id: mine.siteId, days: 90 });
    expect(res.body.data).toMatchObject({ total_requests: 2, last_status: 200 });
  });
});

describe('batched writes', () => {
  const usageRows = async (keyId: string) => {
    const db = await getDb();
    const res = (await db.execute(sql`select status from api_key_usage where key_id = ${keyId} order by status`)) as unknown as {
      rows: { status: number }[];
    };
    return res.rows.map((r) => r.status);
  };

  it('counts the requests of a key, route and status in one minute in one row, across flushes', async () => {
    const key = await createKey(mine.user, mine.siteId, ['read']);
    const minute = new Date(Math.floor(Date.now() / 60_000) * 60_000);
    const at = (second: number) => new Date(minute.getTime() + second * 1000);
    const entry = (status: number, second: number) => ({
      keyId: key.id,
      siteId: mine.siteId,
      method: 'GET',
      route: '/sites',
      status,
      at: at(second),
    });
    for (const second of [1, 2, 3]) recordKeyUsage(entry(200, second));
    recordKeyUsage(entry(404, 4));
    await flushKeyUsage();
    recordKeyUsage(entry(200, 59));
    recordKeyUsage(entry(200, -1)); // the minute before
    await flushKeyUsage();
    const db = await getDb();
    const counted = (await db.execute(
      sql`select status, requests, created_at from api_key_usage where key_id = ${key.id} order by created_at, status`,
    )) as unknown as { rows: { status: number; requests: number; created_at: Date | string }[] };
    expect(counted.rows.map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }))).toEqual([
      { status: 200, requests: 1, created_at: new Date(minute.getTime() - 60_000).toISOString() },
      { status: 200, requests: 4, created_at: minute.toISOString() },
      { status: 404, requests: 1, created_at: minute.toISOString() },
    ]);
    const res = await usage(key.id, { site_id: mine.siteId, days: 2 });
    expect(res.body.data.total_requests).toBe(6);
  });

  it('records every other entry of a flush when one key was deleted with its site before the flush', async () => {
    const kept = await createKey(mine.user, mine.siteId, ['read']);
    const doomedSite = await createSite(mine.user, 'Closing down');
    const doomed = await createKey(mine.user, doomedSite, ['read']);
    const theirs = await createKey(other.user, other.siteId, ['read']);
    const at = new Date();
    const entry = (keyId: string, siteId: string, status: number) => ({ keyId, siteId, method: 'GET', route: '/sites', status, at });
    // All in one buffer, so they are written as one batch; the doomed key sits in the middle.
    recordKeyUsage(entry(kept.id, mine.siteId, 200));
    recordKeyUsage(entry(doomed.id, doomedSite, 200));
    recordKeyUsage(entry(theirs.id, other.siteId, 404));
    recordKeyUsage(entry(kept.id, mine.siteId, 403));
    const db = await getDb();
    await db.execute(sql`delete from sites where id = ${doomedSite}`); // cascades to its keys
    await flushKeyUsage();

    expect(await usageRows(kept.id)).toEqual([200, 403]);
    expect(await usageRows(theirs.id)).toEqual([404]);
    expect(await usageRows(doomed.id)).toEqual([]);
    const res = await usage(kept.id, { site_id: mine.siteId, days: 1 });
    expect(res.body.data).toMatchObject({ total_requests: 2, last_status: 403, last_used_at: at.toISOString() });
  });
});
