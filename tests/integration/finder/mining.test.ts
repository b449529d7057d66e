import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as getRunRoute } from '@/app/api/logs/workflows/[workflowId]/route';
import { POST as startRoute } from '@/app/api/workflow/[name]/route';
import { resetConfig } from '@/lib/core/config';
import { overrideProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { finderRoleQueries, leads } from '@/lib/db/schema';
import { creditAccount, grantCredits, recentLedger, workflowSpend } from '@/lib/finder/credits-repo';
import { createLead } from '@/lib/leads/repo';
import { createSegment } from '@/lib/segments/repo';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import type { WorkflowRecord } from '@/lib/workflows/engine';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { presenters } from '@/tests/helpers/auth-matrix';
import { createRoleQuery } from '@/tests/helpers/finder';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startPeopleDataStandIn, type PeopleDataStandIn } from '@/tests/helpers/people-data-standin';
import { applyWorkflowTestEnv } from '@/tests/helpers/workflow-runs';

/** idealClientProfileMining on the embedded engine against the local Forager-like stand-in. */
const KEY = 'mining-provider-key';
let standIn: PeopleDataStandIn;
let engine: EmbeddedEngine;
let worker: BackgroundWork;
let restore: () => void;

beforeAll(async () => {
  applyWorkflowTestEnv();
  standIn = await startPeopleDataStandIn(KEY, { population: 400 });
  process.env.PEOPLE_DATA_BASE_URL = standIn.url;
  process.env.PEOPLE_DATA_API_KEY = KEY;
  resetConfig();
  engine = new EmbeddedEngine();
  worker = await startBackgroundWork();
  restore = overrideProviders({ workflowEngine: engine });
});
afterAll(async () => {
  restore?.();
  await worker?.stop();
  await standIn?.close();
  delete process.env.PEOPLE_DATA_BASE_URL;
  delete process.env.PEOPLE_DATA_API_KEY;
  resetConfig();
});

const auth = (t: Tenant) => presenters.bearer(t.key);

async function settle(t: Tenant, workflowId: string, timeoutMs = 60_000): Promise<WorkflowRecord> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(getRunRoute, {
      path: `/api/logs/workflows/${workflowId}`,
      params: { workflowId },
      headers: auth(t),
      query: { site_id: t.siteId },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'].includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} still ${res.body.data.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function minedLeads(siteId: string) {
  const db = await getDb();
  return db
    .select()
    .from(leads)
    .where(and(eq(leads.siteId, siteId), eq(leads.origin, 'finder')));
}

async function roleQuery(siteId: string, id: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(finderRoleQueries)
    .where(and(eq(finderRoleQueries.siteId, siteId), eq(finderRoleQueries.id, id)));
  return row;
}

describe('idealClientProfileMining', () => {
  let t: Tenant;
  let segmentId: string;
  let roleQueryId: string;
  const query = { role_title: 'sales' };

  beforeAll(async () => {
    t = await createTenant();
    await grantCredits(t.siteId, 10_000);
    segmentId = (await createSegment(t.siteId, { site_id: t.siteId, name: 'Sales people' })).segment_id;
  });

  it('creates exactly total_targets new leads, without duplicates, in the segment, with origin finder', async () => {
    // The site already knows one of the people the search finds: no second lead for them.
    const known = standIn.matching('sales').find((p) => p.workEmail)!;
    await createLead(t.siteId, { site_id: t.siteId, name: 'Known person', email: known.workEmail!, status: 'new' });
    const startedAt = performance.now();
    const res = await createRoleQuery(t, { name: 'Sales people', total_targets: 40, segment_id: segmentId, query });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    roleQueryId = res.body.data.role_query.id;
    const run = await settle(t, res.body.data.run_ids[0]);
    const elapsedMs = performance.now() - startedAt;
    expect(run.status, JSON.stringify(run)).toBe('COMPLETED');
    expect(run.result).toMatchObject({
      leads_created: 40,
      stopped_reason: null,
      role_queries: [{ role_query_id: roleQueryId, status: 'completed', leads_created: 40, duplicates: 1, total_leads: 40, total_targets: 40 }],
    });
    const found = await minedLeads(t.siteId);
    expect(found).toHaveLength(40);
    expect(new Set(found.map((l) => l.email)).size).toBe(40);
    expect(found.every((l) => l.segmentId === segmentId && l.status === 'new')).toBe(true);
    expect(found.map((l) => l.email)).not.toContain(known.workEmail);
    const db = await getDb();
    const same = await db
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(leads.siteId, t.siteId), eq(leads.email, known.workEmail!)));
    expect(same).toHaveLength(1);
    const rq = await roleQuery(t.siteId, roleQueryId);
    expect(rq).toMatchObject({ leadsCreated: 40, status: 'completed', lastWorkflowId: run.workflowId });
    expect(rq.pagesFetched).toBeGreaterThan(0);

    // Every credit the run spent is in the ledger under its workflow id.
    const spent = await workflowSpend(t.siteId, run.workflowId);
    const withoutEmail = (run.result as { role_queries: { without_email: number }[] }).role_queries[0].without_email;
    expect(spent).toBe(rq.pagesFetched * 1 + (40 + 1 + withoutEmail) * 2);
    console.log(
      `[figure] mining: 40 leads in ${Math.round(elapsedMs)} ms (${(40 / (elapsedMs / 1000)).toFixed(1)} leads/s, ${rq.pagesFetched} pages, ` +
        `${40 + 1 + withoutEmail} email lookups); ${spent} credits = ${(spent / 40).toFixed(2)} credits per lead`,
    );
  });

  it('a higher target continues where the query stopped, never re-creating a lead', async () => {
    const res = await createRoleQuery(t, { name: 'Sales people', total_targets: 45, query: { role_title: ' SALES ' } });
    expect(res.status).toBe(200);
    expect(res.body.data.role_query.id).toBe(roleQueryId);
    const run = await settle(t, res.body.data.run_ids[0]);
    expect(run.status).toBe('COMPLETED');
    expect(run.result).toMatchObject({ leads_created: 5 });
    const found = await minedLeads(t.siteId);
    expect(found).toHaveLength(45);
    expect(new Set(found.map((l) => l.email)).size).toBe(45);
    // The same target again: nothing left to mine, nothing charged.
    const balance = (await creditAccount(t.siteId)).balance;
    const again = await settle(t, (await createRoleQuery(t, { name: 'Sales people', total_targets: 45, query })).body.data.run_ids[0]);
    expect(again.result).toMatchObject({ leads_created: 0, role_queries: [{ status: 'completed' }] });
    expect((await creditAccount(t.siteId)).balance).toBe(balance);
  });

  it('refunds a provider failure and still reaches the target (the step is retried)', async () => {
    const f = await createTenant();
    await grantCredits(f.siteId, 1000);
    standIn.failNext({ status: 500 });
    const res = await createRoleQuery(f, { name: 'Engineers', total_targets: 5, query: { role_title: 'engineer' } });
    const run = await settle(f, res.body.data.run_ids[0]);
    expect(run.status, JSON.stringify(run)).toBe('COMPLETED');
    expect(await minedLeads(f.siteId)).toHaveLength(5);
    const ledger = await recentLedger(f.siteId, 100);
    const refund = ledger.find((e) => e.kind === 'refund');
    expect(refund).toMatchObject({ workflow_id: run.workflowId, amount: 1, note: expect.stringContaining('PROVIDER_ERROR') });
    expect(ledger.find((e) => e.id === refund!.refund_of)).toMatchObject({ kind: 'charge', call_type: 'person_role_search' });
  });

  it('stops cleanly when the credits run out', async () => {
    const poor = await createTenant();
    await grantCredits(poor.siteId, 8);
    const res = await createRoleQuery(poor, { name: 'Directors', total_targets: 50, query: { role_title: 'director' } });
    const run = await settle(poor, res.body.data.run_ids[0]);
    expect(run.status, JSON.stringify(run)).toBe('COMPLETED');
    expect(run.result).toMatchObject({ stopped_reason: 'insufficient_credits', role_queries: [{ status: 'out_of_credits' }] });
    const created = (run.result as { leads_created: number }).leads_created;
    // 8 credits: the first page (1), then a work-email lookup (2) per person while 2 credits remain.
    let left = 8 - 1;
    let expected = 0;
    for (const p of standIn.matching('director').slice(0, 10)) {
      if (left < 2) break;
      left -= 2;
      if (p.workEmail) expected += 1;
    }
    expect(created).toBe(expected);
    expect(await minedLeads(poor.siteId)).toHaveLength(expected);
    expect((await creditAccount(poor.siteId)).balance).toBe(left);
    expect(await roleQuery(poor.siteId, res.body.data.role_query.id)).toMatchObject({ status: 'out_of_credits', leadsCreated: expected });
  });

  it('two runs racing on one role query still create exactly total_targets leads', async () => {
    const r = await createTenant();
    await grantCredits(r.siteId, 1000);
    const first = await createRoleQuery(r, { name: 'Managers', total_targets: 12, query: { role_title: 'manager' } });
    const start = () =>
      call(startRoute, {
        method: 'POST',
        path: '/api/workflow/idealClientProfileMining',
        params: { name: 'idealClientProfileMining' },
        headers: auth(r),
        body: { site_id: r.siteId, role_query_id: first.body.data.role_query.id },
      });
    const [a, b] = await Promise.all([start(), start()]);
    const runs = await Promise.all([first.body.data.run_ids[0], a.body.workflowId, b.body.workflowId].map((id) => settle(r, id)));
    expect(runs.map((run) => run.status)).toEqual(['COMPLETED', 'COMPLETED', 'COMPLETED']);
    const found = await minedLeads(r.siteId);
    expect(found).toHaveLength(12);
    expect(new Set(found.map((l) => l.email)).size).toBe(12);
    expect(await roleQuery(r.siteId, first.body.data.role_query.id)).toMatchObject({ leadsCreated: 12, status: 'completed' });
  });

  it("fails a run naming another site's role query (ROLE_QUERY_NOT_FOUND), touching nothing", async () => {
    const intruder = await createTenant();
    const res = await call(startRoute, {
      method: 'POST',
      path: '/api/workflow/idealClientProfileMining',
      params: { name: 'idealClientProfileMining' },
      headers: auth(intruder),
      body: { site_id: intruder.siteId, role_query_id: roleQueryId },
    });
    expect(res.status).toBe(202);
    const run = await settle(intruder, res.body.workflowId);
    expect(run.status).toBe('FAILED');
    expect(run.failure?.message).toContain('ROLE_QUERY_NOT_FOUND');
    expect(await minedLeads(intruder.siteId)).toHaveLength(0);
  });
});
