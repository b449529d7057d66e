import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as sessionRoute } from '@/app/api/visitors/session/route';
import { POST as trackRoute } from '@/app/api/visitors/track/route';
import { GET as breakdownRoute } from '@/app/sites/[site_id]/analytics/breakdown/[dimension]/route';
import { GET as funnelRoute } from '@/app/sites/[site_id]/analytics/funnel/route';
import { GET as overviewRoute } from '@/app/sites/[site_id]/analytics/overview/route';
import { GET as realtimeRoute } from '@/app/sites/[site_id]/analytics/realtime/route';
import { GET as listGoalsRoute, POST as createGoalRoute } from '@/app/sites/[site_id]/goals/route';
import { createSharedLink, openShare, revokeSharedLink } from '@/lib/analytics/shares';
import { resetConfig } from '@/lib/core/config';
import { database, openDatabase, openMigratedDatabase, useDatabase, useReadReplica, type Database } from '@/lib/db/client';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { postgresBinaries, startReplicaPair, type ReplicaPair } from '@/tests/helpers/pg-replica';

/**
 * DATABASE_READ_URL against a real streaming replica (tests/helpers/pg-replica.ts): the period reads
 * answer from the replica, realtime and what was just written from the primary, and a replica that
 * is down leaves the reads to the primary with one warning. The pair is started with the machine's
 * Postgres binaries: required under CI=true, skipped without them elsewhere. It runs once per run —
 * in the Postgres project when there is one — since it brings its own databases.
 */
const bin = postgresBinaries();
if (!bin && process.env.CI === 'true')
  throw new Error('The read replica suite is required under CI=true: Postgres binaries (initdb, pg_ctl, pg_basebackup) not found');
const once = process.env.TEST_DB === 'postgres' || !process.env.TEST_DATABASE_URL;

const SHOP = 'https://shop.example.com';
const ANALYTICS_READ = 'sgp-analytics-read';
const WARNING = 'analytics read replica unavailable: reading from the primary';

describe.skipIf(!bin || !once)('analytics on a read replica (a real streaming replica)', () => {
  let pair: ReplicaPair;
  let home: Database;
  let primary: Database;
  let replica: Database;
  let t: Tenant;

  beforeAll(async () => {
    home = await database();
    pair = await startReplicaPair(bin!);
    primary = await openMigratedDatabase({ kind: 'postgres', url: pair.primaryUrl, poolMax: 5 });
    await useDatabase(primary);
    replica = await openDatabase({ kind: 'postgres', url: pair.replicaUrl, poolMax: 3, connectTimeoutMs: 2_000, applicationName: ANALYTICS_READ });
    useReadReplica(replica);
    t = await createTenant();
    await visit('/home');
    await pair.replayed();
  }, 120_000);

  afterAll(async () => {
    useReadReplica(null);
    if (home) await useDatabase(home);
    await replica?.close().catch(() => undefined);
    await primary?.close().catch(() => undefined);
    await pair?.stop();
  });

  /** A visitor lands on `path` and views it, through the tracking routes (written on the primary). */
  async function visit(path: string) {
    const headers = { ...presenters.xSaApiKey(t.key), 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0.0.0 Safari/537.36' };
    const started = await call(sessionRoute, {
      method: 'POST',
      path: '/api/visitors/session',
      headers,
      body: { site_id: t.siteId, fingerprint: `fp-${randomBytes(6).toString('hex')}`, url: SHOP + path },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const tracked = await call(trackRoute, {
      method: 'POST',
      path: '/api/visitors/track',
      headers,
      body: { site_id: t.siteId, session_id: started.body.data.session_id, event_type: 'pageview', url: SHOP + path },
    });
    expect(tracked.status, JSON.stringify(tracked.body)).toBe(201);
  }

  const read = (handler: typeof overviewRoute, path: string, query: Record<string, string> = {}, params: Record<string, string> = {}) =>
    call(handler, { path: `/sites/${t.siteId}/${path}`, params: { site_id: t.siteId, ...params }, query, headers: presenters.xApiKey(t.readKey) });
  const sessionsNow = async () => {
    const res = await read(overviewRoute, 'analytics/overview');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data.totals.sessions as number;
  };
  const pagesNow = async () =>
    (await read(breakdownRoute, 'analytics/breakdown/pages', {}, { dimension: 'pages' })).body.data.items.map((i: any) => i.value);

  it('period reads answer from the replica: with its replay paused, what the primary took since is not in them', async () => {
    expect(await sessionsNow()).toBe(1);
    await pair.pauseReplay();
    try {
      await visit('/pricing');

      expect(await sessionsNow()).toBe(1);
      expect(await pagesNow()).toEqual(['/home']);
      const csv = await read(breakdownRoute, 'analytics/breakdown/pages', { format: 'csv' }, { dimension: 'pages' });
      expect(csv.status).toBe(200);
      expect(String(csv.body)).toContain('/home');
      expect(String(csv.body)).not.toContain('/pricing');
      const funnel = await read(funnelRoute, 'analytics/funnel', { steps: 'signup,purchase' });
      expect(funnel.status, JSON.stringify(funnel.body)).toBe(200);

      // The statements came on the replica's own connections.
      const [{ n }] = await replica.sql.query<{ n: number }>('select count(*)::int as n from pg_stat_activity where application_name = $1', [
        ANALYTICS_READ,
      ]);
      expect(n).toBeGreaterThan(0);
    } finally {
      await pair.resumeReplay();
    }
    await pair.replayed();
    expect(await sessionsNow()).toBe(2);
    expect((await pagesNow()).sort()).toEqual(['/home', '/pricing']);
  });

  it('realtime and what was just written answer from the primary, the replica paused', async () => {
    await pair.pauseReplay();
    try {
      await visit('/checkout');
      const live = await read(realtimeRoute, 'analytics/realtime');
      expect(live.status).toBe(200);
      expect(live.body.data.visitors).toBe(3);
      expect(live.body.data.pages.map((p: any) => p.value)).toContain('/checkout');

      // A goal is answered and listed as written.
      const goal = await call(createGoalRoute, {
        method: 'POST',
        path: `/sites/${t.siteId}/goals`,
        params: { site_id: t.siteId },
        headers: presenters.xApiKey(t.key),
        body: { name: 'Checkout', type: 'page', match: '/checkout' },
      });
      expect(goal.status, JSON.stringify(goal.body)).toBe(201);
      const goals = await call(listGoalsRoute, {
        path: `/sites/${t.siteId}/goals`,
        params: { site_id: t.siteId },
        headers: presenters.xApiKey(t.readKey),
      });
      expect(goals.body.data.goals.map((g: any) => g.name)).toEqual(['Checkout']);

      // A shared link opens as soon as it is made, and is gone as soon as it is revoked.
      const link = await createSharedLink(t.siteId, { label: 'Board' });
      expect(await openShare(link.token)).toMatchObject({ siteId: t.siteId });
      await revokeSharedLink(t.siteId, link.id);
      expect(await openShare(link.token)).toBeUndefined();

      // The period reads still answer from before the pause.
      expect(await sessionsNow()).toBe(2);
    } finally {
      await pair.resumeReplay();
    }
    await pair.replayed();
    expect(await sessionsNow()).toBe(3);
  });

  it('a replica that is down: the reads answer from the primary, with one warning', async () => {
    process.env.LOG_LEVEL = 'warn';
    resetConfig();
    const lines: string[] = [];
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    });
    try {
      await pair.stopReplica();
      await visit('/contact');
      expect(await sessionsNow()).toBe(4);
      expect(await pagesNow()).toContain('/contact');
      expect(await sessionsNow()).toBe(4);
      const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === WARNING);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 'warn', reads_on_primary: 1, replica_retry_in_ms: expect.any(Number) });
      expect(lines.join('')).not.toContain(pair.replicaUrl);
    } finally {
      stderr.mockRestore();
      process.env.LOG_LEVEL = 'silent';
      resetConfig();
    }
  });
});
