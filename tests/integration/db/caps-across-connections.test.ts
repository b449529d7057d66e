import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { database, openDatabase, useDatabase, type Database } from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
import { insertInstance } from '@/lib/robots/instances-repo';
import { claimRobotSlot } from '@/lib/robots/slots';
import { countSitesOfOwner } from '@/lib/sites/repo';
import { createSiteOf } from '@/lib/sites/service';
import { countEndpoints } from '@/lib/webhooks/repo';
import { createEndpoint } from '@/lib/webhooks/service';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { newWorkflowId } from '@/lib/workflows/service';
import { createSite, createTenant } from '@/tests/helpers/harness';

/**
 * Caps hold across processes: two clients of one database, each on a connection of its own — as
 * the web process and the worker (on the embedded database both reach PGlite through the socket
 * the worker serves) or two instances on Postgres — create at the same instant, and together they
 * never pass a cap. No in-process lock is involved: each call runs on the client that is the
 * process database when it is made, and the two clients share nothing but the database.
 */
let home: Database;
let clients: Database[] = [];
let server: EmbeddedServer | undefined;
let socketDir: string | undefined;
const robotsPerSite = process.env.ROBOTS_MAX_PER_SITE!;

beforeAll(async () => {
  home = await database();
  if (home.kind === 'postgres') {
    const [{ name }] = await home.sql.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    clients = await Promise.all([0, 1].map(() => openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 4 })));
  } else {
    socketDir = mkdtempSync(path.join(tmpdir(), 'sgp-caps-'));
    server = await home.serve!(socketDir);
    clients = await Promise.all([0, 1].map(() => openDatabase({ kind: 'pglite-socket', socketDir: socketDir!, poolMax: 4 })));
  }
});

afterAll(async () => {
  await useDatabase(home);
  for (const c of clients) await c.close();
  await server?.close();
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
});

afterEach(async () => {
  await useDatabase(home);
  delete process.env.PLAN_CAPS;
  process.env.ROBOTS_MAX_PER_SITE = robotsPerSite;
  resetConfig();
});

/** Makes `n` calls at once, alternating between the two clients (each call takes the client current when it starts). */
async function fromBothClients<T>(n: number, call: (i: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  const calls: Promise<T>[] = [];
  for (let i = 0; i < n; i++) {
    void useDatabase(clients[i % 2]);
    calls.push(call(i));
  }
  return Promise.allSettled(calls);
}

/** `n` browser instances of the site, none started. */
const pendingInstances = (siteId: string, userId: string, n: number) =>
  Promise.all(
    Array.from({ length: n }, (_, i) => insertInstance(siteId, { userId, name: `Robot ${i}`, instanceType: 'browser', status: 'pending' })),
  );

/** The statuses of the account's instances that hold a browser or are opening one. */
async function startingOf(ownerId: string): Promise<{ site_id: string; n: number }[]> {
  const result = (await home.db.execute(
    sql`select i.site_id, count(*)::int as n from remote_instances i join sites s on s.id = i.site_id
        where s.owner_id = ${ownerId} and i.status = 'starting' group by i.site_id`,
  )) as unknown as { rows: { site_id: string; n: number }[] };
  return result.rows;
}

/** How many workflow runs of the site are in progress, read on the home connection. */
async function runningRuns(siteId: string): Promise<number> {
  const result = (await home.db.execute(
    sql`select count(*)::int as n from workflow_runs where site_id = ${siteId} and status = 'RUNNING'`,
  )) as unknown as { rows: { n: number }[] };
  return result.rows[0].n;
}
const refusedWith = (results: PromiseSettledResult<unknown>[], code: string) =>
  results.filter((r) => r.status === 'rejected' && r.reason instanceof ApiError && r.reason.code === code).length;

describe('caps across connections', () => {
  it('sites per account: 8 creations at once from two clients give exactly the 3 the plan allows', async () => {
    process.env.PLAN_CAPS = JSON.stringify({ basic: { sites_per_account: 4 } });
    resetConfig();
    const t = await createTenant(); // holds one site
    const results = await fromBothClients(8, (i) => createSiteOf(t.user.id, { name: `Site ${i}` }));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(refusedWith(results, 'PLAN_LIMIT_REACHED')).toBe(5);
    await useDatabase(home);
    expect(await countSitesOfOwner(t.user.id)).toBe(4);
  });

  it('webhook endpoints per site: 8 creations at once from two clients give exactly the 3 the plan allows', async () => {
    process.env.PLAN_CAPS = JSON.stringify({ basic: { webhook_endpoints_per_site: 3 } });
    resetConfig();
    const t = await createTenant();
    const results = await fromBothClients(8, (i) => createEndpoint(t.siteId, { url: `https://93.184.216.34/hook/${i}`, events: ['lead.created'] }));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(refusedWith(results, 'PLAN_LIMIT_REACHED')).toBe(5);
    await useDatabase(home);
    expect(await countEndpoints(t.siteId)).toBe(3);
  });

  it('workflow runs in progress: with 8 running, 6 starts at once from two clients give exactly 2 runs', async () => {
    const t = await createTenant();
    const engine = new EmbeddedEngine();
    const options = () => ({
      siteId: t.siteId,
      type: 'humanInterventionWorkflow',
      workflowId: newWorkflowId('humanIntervention', t.siteId),
      input: { site_id: t.siteId, question: 'q' },
      timeoutMs: 600_000,
    });
    for (let i = 0; i < 8; i++) expect(await engine.startWithinCap(options(), 10)).toMatchObject({ created: true });
    const results = await fromBothClients(6, () => engine.startWithinCap(options(), 10));
    const values = results.map((r) => (r.status === 'fulfilled' ? r.value : r.reason));
    expect(values.filter((v) => v && typeof v === 'object' && 'created' in v && v.created)).toHaveLength(2);
    expect(values.filter((v) => v === undefined)).toHaveLength(4);
    await useDatabase(home);
    expect(await runningRuns(t.siteId)).toBe(10);
  });

  it('workflow runs in progress: a start whose workflow id is taken takes no place, so the next start of its batch gets the last one', async () => {
    const t = await createTenant();
    const engine = new EmbeddedEngine();
    const options = (workflowId = newWorkflowId('humanIntervention', t.siteId)) => ({
      siteId: t.siteId,
      type: 'humanInterventionWorkflow',
      workflowId,
      input: { site_id: t.siteId, question: 'q' },
      timeoutMs: 600_000,
    });
    const taken = await engine.startWithinCap(options(), 2);
    expect(taken).toMatchObject({ created: true });
    // Both in one batch (asked in the same turn): one place left under the cap of 2.
    const [again, next] = await Promise.allSettled([engine.startWithinCap(options(taken!.workflowId), 2), engine.startWithinCap(options(), 2)]);
    expect(again.status).toBe('rejected');
    expect(next).toMatchObject({ status: 'fulfilled', value: { created: true } });
    expect(await runningRuns(t.siteId)).toBe(2);
  });

  it('running robots per account: 8 starts at once across two sites from two clients claim exactly the 3 the plan allows', async () => {
    process.env.PLAN_CAPS = JSON.stringify({ basic: { robots_per_account: 3 } });
    resetConfig();
    const t = await createTenant();
    const second = await createSite(t.user, 'Second site');
    const instances = [...(await pendingInstances(t.siteId, t.user.id, 4)), ...(await pendingInstances(second, t.user.id, 4))];
    const results = await fromBothClients(instances.length, (i) => claimRobotSlot(instances[i].siteId, instances[i].id, ['pending'], 'starting'));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.row?.status === 'starting')).toHaveLength(3);
    expect(refusedWith(results, 'RATE_LIMITED')).toBe(5);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as ApiError;
    expect(refused.status).toBe(429);
    expect(refused.details).toEqual({ running_limit: 3, retry_after: 60 });
    expect(refused.message).toMatch(/account already runs 3 robot browsers/);
    await useDatabase(home);
    expect((await startingOf(t.user.id)).reduce((sum, r) => sum + r.n, 0)).toBe(3);
  });

  it('running robots per site: 6 starts at once from two clients claim exactly ROBOTS_MAX_PER_SITE', async () => {
    process.env.ROBOTS_MAX_PER_SITE = '2';
    resetConfig();
    const t = await createTenant();
    const instances = await pendingInstances(t.siteId, t.user.id, 6);
    const results = await fromBothClients(instances.length, (i) => claimRobotSlot(t.siteId, instances[i].id, ['pending'], 'starting'));
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.row?.status === 'starting')).toHaveLength(2);
    expect(refusedWith(results, 'RATE_LIMITED')).toBe(4);
    const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected')!.reason as ApiError;
    expect(refused.details).toEqual({ running_limit: 2, retry_after: 60 });
    await useDatabase(home);
    expect(await startingOf(t.user.id)).toEqual([{ site_id: t.siteId, n: 2 }]);
  });
});
