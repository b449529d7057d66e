import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { GET as listSites } from '@/app/sites/route';
import { hashApiKey } from '@/lib/auth/api-key-format';
import { getDb } from '@/lib/db/client';
import { keptKey, MAX_AGE_MS } from '@/lib/keys/cache';
import { setSitePlan } from '@/lib/sites/repo';
import { presenters } from '@/tests/helpers/auth-matrix';
import { testClock } from '@/tests/helpers/clock';
import { call, createKey, createSite, createUser } from '@/tests/helpers/harness';

const onPostgres = process.env.TEST_DB === 'postgres';
const setClock = testClock();

/** A new key of a new site, used until this process keeps it (on Postgres, once it listens for changes). */
async function keptNewKey() {
  const user = await createUser();
  const siteId = await createSite(user);
  const { id, apiKey } = await createKey(user, siteId);
  const request = () => call(listSites, { path: '/sites', headers: presenters.xApiKey(apiKey) });
  for (;;) {
    expect((await request()).status).toBe(200);
    if (keptKey(hashApiKey(apiKey))) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { id, siteId, apiKey, request };
}

describe('keys kept by the process that verified them', () => {
  it('answers a kept key without a lookup and keeps no unknown key', async () => {
    setClock(Date.now());
    const { apiKey } = await keptNewKey();
    expect(keptKey(hashApiKey(apiKey))).toMatchObject({ revokedAt: null });
    const unknown = `key_${'x'.repeat(49)}`;
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(unknown) })).status).toBe(401);
    expect(keptKey(hashApiKey(unknown))).toBeUndefined();
  });

  it('forgets every key when a site plan is set, so the next request is limited by the new plan', async () => {
    setClock(Date.now());
    const { siteId, apiKey } = await keptNewKey();
    expect(await setSitePlan(siteId, { plan: 'pro' })).toBe(true);
    expect(keptKey(hashApiKey(apiKey))).toBeUndefined();
  });

  it.skipIf(!onPostgres)('Postgres: a change committed by another connection reaches every process by notification', async () => {
    // The clock stands still: a kept key never ages out here, only the notification can make it go.
    setClock(Date.now());
    const { id, request } = await keptNewKey();
    const db = await getDb();
    await db.execute(sql`update api_keys set revoked_at = now() where id = ${id}`);
    let res = await request();
    while (res.status === 200) res = await request();
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });

  it.skipIf(onPostgres)('embedded database: a change made outside the app is seen once the kept key ages out', async () => {
    const start = Date.now();
    setClock(start);
    const { id, request } = await keptNewKey();
    const db = await getDb();
    await db.execute(sql`update api_keys set revoked_at = now() where id = ${id}`);
    setClock(start + MAX_AGE_MS - 1);
    expect((await request()).status).toBe(200);
    setClock(start + MAX_AGE_MS);
    const res = await request();
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
  });
});
