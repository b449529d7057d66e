import { existsSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DELETE as deleteSiteRoute, PATCH as updateSiteRoute } from '@/app/api/sites/[site_id]/route';
import { GET as visitorSites } from '@/app/api/visitors/sites/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { POST as uploadRoute } from '@/app/api/visitors/upload/route';
import { GET as listSites } from '@/app/sites/route';
import { config } from '@/lib/core/config';
import { getDb } from '@/lib/db/client';
import { flushKeyUsage } from '@/lib/keys/usage';
import { presenters } from '@/tests/helpers/auth-matrix';
import { BASE, call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { useModelForFile } from '@/tests/helpers/llm-standin';
import { createSiteObjects, siteFingerprint } from '@/tests/helpers/site-objects';
import { startWorkflow } from '@/tests/helpers/workflow-runs';

useModelForFile();

let other: Tenant;
beforeAll(async () => {
  other = await createTenant();
});

const patch = (t: Tenant, siteId: string, body: unknown, headers = t.user.auth) =>
  call(updateSiteRoute, { method: 'PATCH', path: '/api/sites/{site_id}', params: { site_id: siteId }, headers, body });
const remove = (t: Tenant, siteId: string, body: unknown, headers = t.user.auth) =>
  call(deleteSiteRoute, { method: 'DELETE', path: '/api/sites/{site_id}', params: { site_id: siteId }, headers, body });

/** Every table with a `site_id` column, read from the catalog: tables added later are covered too. */
async function rowsPerSiteTable(siteId: string): Promise<Record<string, number>> {
  const db = await getDb();
  const tables = (await db.execute(sql`
    select table_name from information_schema.columns
     where table_schema = 'public' and column_name = 'site_id' order by table_name`)) as unknown as { rows: { table_name: string }[] };
  const counts: Record<string, number> = {};
  for (const { table_name } of tables.rows) {
    const res = (await db.execute(sql`select count(*)::int as n from ${sql.identifier(table_name)} where site_id = ${siteId}`)) as unknown as {
      rows: { n: number }[];
    };
    counts[table_name] = res.rows[0].n;
  }
  return counts;
}

describe('PATCH /api/sites/{site_id}', () => {
  it('renames a site, changes its domain and clears it with null', async () => {
    const t = await createTenant();
    const renamed = await patch(t, t.siteId, { name: '  Shop  ', domain: 'Shop.Example.com' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toEqual({ success: true, data: { id: t.siteId, name: 'Shop', domain: 'shop.example.com', created_at: expect.any(String) } });
    const stored = await call(visitorSites, { path: '/api/visitors/sites', headers: t.user.auth, query: { id: t.siteId } });
    expect(stored.body.data).toMatchObject({ name: 'Shop', domain: 'shop.example.com' });

    const domainOnly = await patch(t, t.siteId, { domain: 'www.shop.example.com' });
    expect(domainOnly.body.data).toMatchObject({ name: 'Shop', domain: 'www.shop.example.com' });
    const pasted = await patch(t, t.siteId, { domain: 'https://Shop.Example/' });
    expect(pasted.body.data).toMatchObject({ name: 'Shop', domain: 'shop.example' });
    const cleared = await patch(t, t.siteId, { domain: null });
    expect(cleared.body.data).toMatchObject({ name: 'Shop', domain: null });
    // The key still works and sees the new name.
    const viaKey = await call(listSites, { path: '/sites', headers: presenters.xApiKey(t.key) });
    expect(viaKey.body.data[0]).toMatchObject({ id: t.siteId, name: 'Shop', domain: null });
  });

  it.each([
    ['no field', {}],
    ['an empty name', { name: '' }],
    ['a name over 200 characters', { name: 'x'.repeat(201) }],
    ['a domain that is no host name', { domain: 'shop example' }],
    ['an unknown field', { name: 'x', owner_id: '00000000-0000-4000-8000-000000000000' }],
  ])('refuses %s with 400 and changes nothing', async (_why, body) => {
    const t = await createTenant();
    const before = await siteFingerprint([t.siteId]);
    const res = await patch(t, t.siteId, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INVALID_REQUEST' } });
    expect(await siteFingerprint([t.siteId])).toEqual(before);
  });

  it("is the owner's only: another user gets 403, an API key 401, no session 401; nothing changes", async () => {
    const t = await createTenant();
    const before = await siteFingerprint([t.siteId]);
    expect((await patch(other, t.siteId, { name: 'Taken' })).status).toBe(403);
    expect((await patch(t, t.siteId, { name: 'Taken' }, presenters.bearer(t.key))).status).toBe(401);
    expect((await patch(t, t.siteId, { name: 'Taken' }, {})).status).toBe(401);
    expect(await siteFingerprint([t.siteId])).toEqual(before);
  });
});

describe('DELETE /api/sites/{site_id}', () => {
  it('needs the site name typed as confirmation: anything else is a 400 and nothing goes', async () => {
    const t = await createTenant();
    const before = await siteFingerprint([t.siteId]);
    for (const confirm of ['', 'test site', 'Test site ', t.siteId]) {
      const res = await remove(t, t.siteId, { confirm });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { issues: [{ path: 'body.confirm' }] } });
    }
    expect((await remove(t, t.siteId, {})).status).toBe(400);
    expect((await remove(t, t.siteId, { confirm: 'Test site', force: true })).status).toBe(400);
    expect(await siteFingerprint([t.siteId])).toEqual(before);
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(t.key) })).status).toBe(200);
  });

  it("is the owner's only: another user gets 403, an API key 401; the site stays", async () => {
    const t = await createTenant();
    expect((await remove(other, t.siteId, { confirm: 'Test site' })).status).toBe(403);
    expect((await remove(t, t.siteId, { confirm: 'Test site' }, presenters.bearer(t.key))).status).toBe(401);
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(t.key) })).status).toBe(200);
  });

  it('an unknown or already deleted site is 403 (the session does not own it)', async () => {
    const t = await createTenant();
    expect((await remove(t, t.siteId, { confirm: 'Test site' })).status).toBe(200);
    const again = await remove(t, t.siteId, { confirm: 'Test site' });
    expect(again.status).toBe(403);
    expect(again.body.error.code).toBe('FORBIDDEN');
  });

  it('takes every row of the site in every site table, its files and running runs; its keys stop at once; other sites untouched', async () => {
    const t = await createTenant();
    const ids = await createSiteObjects(t);
    // Data the object helper does not make: an event, a file, a running workflow run, key usage.
    const tracked = await call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers: presenters.xSaApiKey(t.key),
      body: { site_id: t.siteId, session_id: ids.session_id, event_type: 'pageview', url: 'https://shop.example.com/' },
    });
    expect(tracked.status).toBe(201);
    const form = new FormData();
    form.set('site_id', t.siteId);
    form.set('file', new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    const uploaded = await uploadRoute(
      new Request(new URL('/api/visitors/upload', BASE), { method: 'POST', headers: presenters.xSaApiKey(t.key), body: form }),
      {
        params: Promise.resolve({}),
      },
    );
    expect(uploaded.status).toBe(201);
    const file = path.resolve(config().DATA_DIR, 'uploads', (await uploaded.json()).data.storage_key);
    expect(existsSync(file)).toBe(true);
    const started = await startWorkflow(t, 'leadGeneration');
    expect(started.status).toBeLessThan(300);
    await flushKeyUsage();

    const before = await rowsPerSiteTable(t.siteId);
    for (const table of [
      'api_keys',
      'api_key_usage',
      'commands',
      'visitors',
      'visitor_sessions',
      'session_events',
      'leads',
      'segments',
      'requirements',
      'site_origins',
      'visitor_uploads',
      'conversations',
      'conversation_messages',
      'workflow_runs',
    ]) {
      expect(before[table], table).toBeGreaterThan(0);
    }
    // The fingerprint's global user/site counts change with the deletion; the other site's rows must not.
    const otherRows = async () => {
      const { counts: _counts, ...rows } = await siteFingerprint([other.siteId]);
      return rows;
    };
    const untouched = await otherRows();

    const res = await remove(t, t.siteId, { confirm: 'Test site' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        id: t.siteId,
        name: 'Test site',
        deleted_at: expect.any(String),
        removed: {
          api_keys: before.api_keys,
          visitors: before.visitors,
          visitor_sessions: before.visitor_sessions,
          leads: before.leads,
          commands: before.commands,
          workflow_runs: before.workflow_runs,
          workflow_runs_terminated: 1,
          files: 1,
        },
      },
    });

    const after = await rowsPerSiteTable(t.siteId);
    expect(Object.entries(after).filter(([, n]) => n > 0)).toEqual([]);
    const db = await getDb();
    const siteRow = (await db.execute(sql`select count(*)::int as n from sites where id = ${t.siteId}`)) as unknown as { rows: { n: number }[] };
    expect(siteRow.rows[0].n).toBe(0);
    expect(existsSync(file)).toBe(false);

    for (const key of [t.key, t.readKey]) {
      const refused = await call(listSites, { path: '/sites', headers: presenters.xApiKey(key) });
      expect(refused.status).toBe(401);
      expect(refused.body.error.code).toBe('UNAUTHORIZED');
    }
    // The owner's session still works; the site is no longer listed.
    const mine = await call(visitorSites, { path: '/api/visitors/sites', headers: t.user.auth });
    expect(mine.status).toBe(200);
    expect(mine.body.data).toEqual([]);
    expect(await otherRows()).toEqual(untouched);
    expect((await call(listSites, { path: '/sites', headers: presenters.xApiKey(other.key) })).status).toBe(200);
  });
});
