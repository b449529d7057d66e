import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as cmoMessage } from '@/app/api/agents/cmo/message/route';
import { POST as cancelRoute } from '@/app/api/logs/workflows/[workflowId]/cancel/route';
import { GET as getRunRoute } from '@/app/api/logs/workflows/[workflowId]/route';
import { POST as signalRoute } from '@/app/api/logs/workflows/[workflowId]/signal/route';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { POST as startRoute } from '@/app/api/workflow/[name]/route';
import { engineDispatcher } from '@/lib/agents/dispatch';
import { getCommand } from '@/lib/commands/repo';
import { overrideProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { leads, segments, webhookEvents } from '@/lib/db/schema';
import { createLead } from '@/lib/leads/repo';
import type { WorkflowEngine, WorkflowRecord } from '@/lib/workflows/engine';
import { authMatrix, presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { joinedMember } from '@/tests/helpers/members';
import { applyWorkflowTestEnv, startWorkflow } from '@/tests/helpers/workflow-runs';

/**
 * The behaviour every workflow engine must show through the API. An engine's test file calls
 * `describeWorkflowBehaviour(name, setup)`; `setup` builds the engine (running a worker that
 * executes runs) against the suite's database and returns it with a way to stop it.
 */
export interface EngineUnderTest {
  engine: WorkflowEngine;
  stop(): Promise<void>;
}

const FINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'TERMINATED', 'TIMED_OUT'];

export function describeWorkflowBehaviour(engineName: string, setup: () => Promise<EngineUnderTest>): void {
  describe(`workflows on the ${engineName} engine`, () => {
    let under: EngineUnderTest;
    let restore: () => void;
    let mine: Tenant;
    let other: Tenant;
    let page: http.Server;
    let pageUrl: string;

    beforeAll(async () => {
      applyWorkflowTestEnv();
      under = await setup();
      restore = overrideProviders({ workflowEngine: under.engine });
      [mine, other] = await Promise.all([createTenant(), createTenant()]);
      page = http.createServer((req, res) => {
        if (req.url === '/elsewhere') {
          // A public-looking page that sends the fetcher inside: the redirect is checked like the URL.
          res.writeHead(302, { location: `http://localhost:${(page.address() as AddressInfo).port}/` });
          res.end();
          return;
        }
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          '<html><head><title>Acme &amp; Co — CRM for bakeries</title><meta name="description" content="Software for bakeries">' +
            '</head><body><h1>Bake more</h1><h2>Pricing</h2><a href="/x">x</a><script>var t="<h1>no</h1>"</script></body></html>',
        );
      });
      await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
      pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}/`;
    });

    afterAll(async () => {
      await new Promise((resolve) => page?.close(resolve));
      restore?.();
      await under?.stop();
    });

    const auth = (t: Tenant) => presenters.bearer(t.key);
    const start = (t: Tenant, name: string, body: unknown, headers: Record<string, string> = {}) =>
      call(startRoute, { method: 'POST', path: `/api/workflow/${name}`, params: { name }, headers: { ...auth(t), ...headers }, body });
    const logs = (t: Tenant, query: Record<string, string | number | undefined> = {}) =>
      call(logsRoute, { path: '/api/logs/workflows', headers: auth(t), query: { site_id: t.siteId, ...query } });
    const detail = (t: Tenant, workflowId: string, asSite = t.siteId) =>
      call(getRunRoute, { path: `/api/logs/workflows/${workflowId}`, params: { workflowId }, headers: auth(t), query: { site_id: asSite } });
    const cancel = (t: Tenant, workflowId: string) =>
      call(cancelRoute, {
        method: 'POST',
        path: `/api/logs/workflows/${workflowId}/cancel`,
        params: { workflowId },
        headers: auth(t),
        body: { site_id: t.siteId },
      });

    async function started(t: Tenant, name: string, body: Record<string, unknown> = {}): Promise<string> {
      const res = await start(t, name, { site_id: t.siteId, ...body });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      return res.body.workflowId;
    }

    async function settle(t: Tenant, workflowId: string, timeoutMs = 20_000): Promise<WorkflowRecord> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const res = await detail(t, workflowId);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        if (FINAL.includes(res.body.data.status)) return res.body.data;
        if (Date.now() > deadline) throw new Error(`run ${workflowId} still ${res.body.data.status} after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }

    async function waitingRun(t: Tenant, timeoutSeconds = 600): Promise<string> {
      return started(t, 'humanIntervention', { question: 'Approve the campaign?', timeout_seconds: timeoutSeconds });
    }

    const email = (local: string) => `${local}-${randomBytes(4).toString('hex')}@acme-bakeries.io`;

    describe('POST /api/workflow/{name}', () => {
      it('answers at once with the run and a workflowId of the spec pattern', async () => {
        const res = await start(mine, 'dailyStandUp', { site_id: mine.siteId });
        expect(res.status, JSON.stringify(res.body)).toBe(202);
        expect(res.body).toEqual({ success: true, async: true, workflowId: expect.any(String), runId: expect.any(String), status: 'RUNNING' });
        expect(res.body.workflowId).toMatch(new RegExp(`^daily-stand-up-${mine.siteId}-\\d{13}-[0-9a-f]{8}$`));
        const record = await settle(mine, res.body.workflowId);
        expect(record).toMatchObject({ workflowId: res.body.workflowId, runId: res.body.runId, type: 'dailyStandUpWorkflow', status: 'COMPLETED' });
      });

      const cases: [string, string, () => unknown, number, string][] = [
        ['missing site_id', 'leadGeneration', () => ({}), 400, 'INVALID_SITE_ID'],
        ['site_id not a UUID', 'leadGeneration', () => ({ site_id: 'nope' }), 400, 'INVALID_SITE_ID'],
        ['site_id a number', 'leadGeneration', () => ({ site_id: 42 }), 400, 'INVALID_SITE_ID'],
        ['unknown workflow name', 'noSuchWorkflow', () => ({ site_id: mine.siteId }), 404, 'NOT_FOUND'],
        ['prototype key as name', 'constructor', () => ({ site_id: mine.siteId }), 404, 'NOT_FOUND'],
        ['unknown field (strict body)', 'leadGeneration', () => ({ site_id: mine.siteId, extra: 1 }), 400, 'INVALID_REQUEST'],
        ['missing lead_id', 'leadFollowUp', () => ({ site_id: mine.siteId }), 400, 'INVALID_REQUEST'],
        ['lead_id not a UUID', 'leadFollowUp', () => ({ site_id: mine.siteId, lead_id: 'x' }), 400, 'INVALID_REQUEST'],
        [
          'enrichLead without company_name',
          'enrichLead',
          () => ({ site_id: mine.siteId, linkedin_profile: 'l', person_id: 'p', userId: 'u' }),
          400,
          'INVALID_REQUEST',
        ],
        [
          'customerSupport with a string boolean',
          'customerSupport',
          () => ({ ...supportBody(mine), website_chat_origin: 'yes' }),
          400,
          'INVALID_REQUEST',
        ],
        ['analyzeSite with a file URL', 'analyzeSite', () => ({ site_id: mine.siteId, url: 'file:///etc/passwd' }), 400, 'INVALID_REQUEST'],
        [
          'humanIntervention timeout out of range',
          'humanIntervention',
          () => ({ site_id: mine.siteId, question: 'q', timeout_seconds: 0 }),
          400,
          'INVALID_REQUEST',
        ],
      ];
      it.each(cases)('%s → %i %s', async (_label, name, body, status, code) => {
        const res = await start(mine, name, body());
        expect(res.status, JSON.stringify(res.body)).toBe(status);
        expect(res.body).toEqual({
          success: false,
          code,
          error: {
            code,
            message: expect.any(String),
            request_id: expect.any(String),
            ...(res.body.error.details ? { details: expect.any(Object) } : {}),
          },
        });
      });

      it('accepts the full customerSupport body of the spec, and webhook with no site_id', async () => {
        const support = await start(mine, 'customerSupport', supportBody(mine));
        expect(support.status, JSON.stringify(support.body)).toBe(202);
        const hook = await start(mine, 'webhook', { type: 'INSERT', table: 'leads', record: { id: 1 } });
        expect(hook.status, JSON.stringify(hook.body)).toBe(202);
        const record = await settle(mine, hook.body.workflowId);
        expect(record.status).toBe('COMPLETED');
        const db = await getDb();
        const [event] = await db.select().from(webhookEvents).where(eq(webhookEvents.workflowId, hook.body.workflowId));
        expect(event).toMatchObject({ siteId: mine.siteId, eventType: 'INSERT', tableName: 'leads' });
        expect(record.result).toEqual({ event_id: event.id, type: 'INSERT', table: 'leads' });
      });

      it('returns the same run for a repeated Idempotency-Key', async () => {
        const key = `retry-${randomUUID()}`;
        const first = await start(mine, 'dailyStandUp', { site_id: mine.siteId }, { 'idempotency-key': key });
        const second = await start(mine, 'dailyStandUp', { site_id: mine.siteId }, { 'idempotency-key': key });
        expect(first.status).toBe(202);
        expect(second.body).toEqual(first.body);
        const other = await start(mine, 'dailyStandUp', { site_id: mine.siteId }, { 'idempotency-key': `${key}-2` });
        expect(other.body.workflowId).not.toBe(first.body.workflowId);
        const bad = await start(mine, 'dailyStandUp', { site_id: mine.siteId }, { 'idempotency-key': 'x'.repeat(201) });
        expect(bad.status).toBe(400);
      });

      describe('auth matrix', () => {
        authMatrix({
          tenants: () => ({ mine, other }),
          present: presenters.bearer,
          write: true,
          send: (headers, siteId) =>
            call(startRoute, {
              method: 'POST',
              path: '/api/workflow/dailyStandUp',
              params: { name: 'dailyStandUp' },
              headers,
              body: { site_id: siteId },
            }),
        });
        it('takes the key as x-api-key too', async () => {
          const res = await startWorkflow(mine, 'dailyStandUp', {}, presenters.xApiKey(mine.key));
          expect(res.status).toBe(202);
        });
      });

      it(`caps the runs in progress per site by plan (429 RATE_LIMITED)`, async () => {
        const t = await createTenant();
        const ids = [];
        for (let i = 0; i < 9; i++) ids.push(await waitingRun(t));
        const keyed = await start(t, 'humanIntervention', { site_id: t.siteId, question: 'q' }, { 'idempotency-key': 'first-of-ten' });
        const res = await start(t, 'dailyStandUp', { site_id: t.siteId });
        expect(res.status).toBe(429);
        // A retry of a start that got its run still gets that run at the cap.
        const retried = await start(t, 'humanIntervention', { site_id: t.siteId, question: 'q' }, { 'idempotency-key': 'first-of-ten' });
        expect(retried.status).toBe(202);
        expect(retried.body.workflowId).toBe(keyed.body.workflowId);
        expect(res.body.error.code).toBe('RATE_LIMITED');
        expect(res.body.error.message).toMatch(/10 workflow runs in progress/);
        expect(res.headers.get('retry-after')).toBe('10');
        expect((await cancel(t, ids[0])).status).toBe(200);
        expect((await start(t, 'dailyStandUp', { site_id: t.siteId })).status).toBe(202);
        for (const id of [...ids.slice(1), keyed.body.workflowId]) await cancel(t, id);
      });

      it('parallel starts never pass the cap: with 8 runs going, 5 at once give 2 runs and 3 × 429', async () => {
        const t = await createTenant();
        const ids = [];
        for (let i = 0; i < 8; i++) ids.push(await waitingRun(t));
        const burst = await Promise.all(
          Array.from({ length: 5 }, () => start(t, 'humanIntervention', { site_id: t.siteId, question: 'q', timeout_seconds: 600 })),
        );
        expect(burst.map((r) => r.status).sort()).toEqual([202, 202, 429, 429, 429]);
        expect(burst.filter((r) => r.status === 429).every((r) => r.body.error.code === 'RATE_LIMITED')).toBe(true);
        expect(await under.engine.countRunning(t.siteId)).toBe(10);
        for (const id of [...ids, ...burst.filter((r) => r.status === 202).map((r) => r.body.workflowId)]) await cancel(t, id);
      });

      it('starts at once keep their answers: one Idempotency-Key gives one run, a full site does not take the place of another', async () => {
        const full = await createTenant();
        const open = await createTenant();
        const ids = [];
        for (let i = 0; i < 10; i++) ids.push(await waitingRun(full));
        const key = `burst-${randomUUID()}`;
        const body = (t: Tenant) => ({ site_id: t.siteId, question: 'q', timeout_seconds: 600 });
        const [refused, ...rest] = await Promise.all([
          start(full, 'humanIntervention', body(full)),
          ...Array.from({ length: 4 }, () => start(open, 'humanIntervention', body(open), { 'idempotency-key': key })),
          start(open, 'humanIntervention', body(open)),
        ]);
        expect(refused.status).toBe(429);
        expect(refused.body.error.code).toBe('RATE_LIMITED');
        expect(rest.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
        const keyed = rest.slice(0, 4).map((r) => r.body.workflowId);
        expect(new Set(keyed).size).toBe(1);
        expect(rest[4].body.workflowId).not.toBe(keyed[0]);
        expect(await under.engine.countRunning(full.siteId)).toBe(10);
        expect(await under.engine.countRunning(open.siteId)).toBe(2);
        for (const id of ids) await cancel(full, id);
        for (const id of [keyed[0], rest[4].body.workflowId]) await cancel(open, id);
      });
    });

    describe('runs', () => {
      it('leadInvalidation marks unusable leads as lost and keeps the result in the logs', async () => {
        const good = await createLead(mine.siteId, { site_id: mine.siteId, name: 'Good', email: email('good'), status: 'new' });
        const reserved = await createLead(mine.siteId, {
          site_id: mine.siteId,
          name: 'Reserved',
          email: `x-${randomUUID()}@example.com`,
          status: 'new',
        });
        const phone = await createLead(mine.siteId, { site_id: mine.siteId, name: 'Phone', email: email('phone'), phone: '12', status: 'contacted' });
        const id = await started(mine, 'leadInvalidation');
        const record = await settle(mine, id);
        expect(record.status, JSON.stringify(record.failure)).toBe('COMPLETED');
        const result = record.result as { invalid: number; marked: number; leads: { lead_id: string; reason: string }[] };
        expect(result.leads.map((l) => l.lead_id).sort()).toEqual([reserved.id, phone.id].sort());
        expect(result.marked).toBe(2);
        const db = await getDb();
        const rows = await db.select().from(leads).where(eq(leads.siteId, mine.siteId));
        const byId = new Map(rows.map((r) => [r.id, r]));
        expect(byId.get(good.id)!.status).toBe('new');
        expect(byId.get(reserved.id)!.status).toBe('lost');
        expect(byId.get(reserved.id)!.notes).toMatch(/^Marked invalid: email domain example\.com is reserved/);
        expect(byId.get(phone.id)!.status).toBe('lost');
        const listed = await logs(mine, { type: 'leadInvalidationWorkflow' });
        expect(listed.body.workflows.find((w: WorkflowRecord) => w.workflowId === id)).toMatchObject({ status: 'COMPLETED', result: { marked: 2 } });
      });

      it('buildSegments clusters leads by attribute into segments; a rerun updates them', async () => {
        const t = await createTenant();
        for (const origin of ['LinkedIn', 'linkedin ', 'LinkedIn', 'Referral', 'Referral', 'Fair']) {
          await createLead(t.siteId, { site_id: t.siteId, name: 'L', email: email('seg'), origin, status: 'new' });
        }
        const record = await settle(t, await started(t, 'buildSegments', { attributes: ['origin'], min_size: 2 }));
        expect(record.status, JSON.stringify(record.failure)).toBe('COMPLETED');
        const db = await getDb();
        const segs = await db.select().from(segments).where(eq(segments.siteId, t.siteId));
        expect(segs.map((s) => [s.name, s.size]).sort()).toEqual([
          ['Origin: linkedin', 3],
          ['Origin: referral', 2],
        ]);
        const linkedin = segs.find((s) => s.name === 'Origin: linkedin')!;
        const members = await db
          .select()
          .from(leads)
          .where(and(eq(leads.siteId, t.siteId), eq(leads.segmentId, linkedin.id)));
        expect(members).toHaveLength(3);
        await settle(t, await started(t, 'buildSegments', { attributes: ['origin'], min_size: 2 }));
        expect(await db.select().from(segments).where(eq(segments.siteId, t.siteId))).toHaveLength(2);
      });

      it('assignLeads shares unassigned leads between people, least loaded first', async () => {
        const t = await createTenant();
        // Leads go to members of the site only: two teammates who joined through invitations.
        const [a, b] = [(await joinedMember(t.user, t.siteId, 'member')).id, (await joinedMember(t.user, t.siteId, 'member')).id];
        await createLead(t.siteId, { site_id: t.siteId, name: 'Taken', email: email('t'), assignee_id: a, status: 'new' });
        for (let i = 0; i < 3; i++) await createLead(t.siteId, { site_id: t.siteId, name: `L${i}`, email: email('a'), status: 'new' });
        const record = await settle(t, await started(t, 'assignLeads', { assignee_ids: [a, b] }));
        expect(record.status, JSON.stringify(record.failure)).toBe('COMPLETED');
        expect(record.result).toMatchObject({ assigned: 3, load: { [a]: 2, [b]: 2 } });
        const db = await getDb();
        const counts = await db.execute(
          sql`select assignee_id, count(*)::int as n from leads where site_id = ${t.siteId} group by assignee_id order by assignee_id`,
        );
        expect((counts as unknown as { rows: { n: number }[] }).rows.map((r) => r.n)).toEqual([2, 2]);
      });

      it('dailyStandUp reports the figures of the site', async () => {
        const t = await createTenant();
        await createLead(t.siteId, { site_id: t.siteId, name: 'N', email: email('n'), status: 'new' });
        await createLead(t.siteId, { site_id: t.siteId, name: 'Q', email: email('q'), status: 'qualified' });
        const record = await settle(t, await started(t, 'dailyStandUp'));
        expect(record.status).toBe('COMPLETED');
        expect(record.result).toMatchObject({
          figures: { window_hours: 24, leads_total: 2, leads_new: 2, leads_by_status: { new: 1, qualified: 1 } },
        });
        expect((record.result as { summary: string[] }).summary[0]).toBe('Leads: 2 new in the last 24 h, 2 in total (1 new, 1 qualified).');
      });

      it('analyzeSite fetches an allowed page and extracts title, description and headings', async () => {
        const record = await settle(mine, await started(mine, 'analyzeSite', { url: pageUrl }));
        expect(record.status, JSON.stringify(record.failure)).toBe('COMPLETED');
        expect(record.result).toMatchObject({
          page: {
            status: 200,
            title: 'Acme & Co — CRM for bakeries',
            description: 'Software for bakeries',
            headings: [
              { level: 1, text: 'Bake more' },
              { level: 2, text: 'Pricing' },
            ],
            links: 1,
          },
        });
      });

      it('analyzeSite refuses a private address that is not allowed (SSRF guard)', async () => {
        const port = (page.address() as AddressInfo).port;
        const record = await settle(mine, await started(mine, 'analyzeSite', { url: `http://localhost:${port}/` }));
        expect(record.status).toBe('FAILED');
        expect(record.failure!.message).toMatch(/^URL_NOT_ALLOWED: localhost resolves to a non-public address/);
        expect(record.failure!.cause).toMatchObject({ source: 'activity:fetchPage' });
      });

      it('analyzeSite checks redirects like the URL itself', async () => {
        const record = await settle(mine, await started(mine, 'analyzeSite', { url: `${pageUrl}elsewhere` }));
        expect(record.status).toBe('FAILED');
        expect(record.failure!.message).toMatch(/^URL_NOT_ALLOWED: localhost resolves to a non-public address/);
      });

      it('a workflow that needs a model FAILS with MODEL_NOT_CONFIGURED, naming the variables', async () => {
        const record = await settle(mine, await started(mine, 'leadGeneration'));
        expect(record.status).toBe('FAILED');
        expect(record.failure!.message).toMatch(/^MODEL_NOT_CONFIGURED: .*LLM_BASE_URL/);
        expect(record.failure!.cause).toEqual({ message: record.failure!.message, source: 'activity:generateText', stackTrace: expect.any(String) });
        expect(record.result).toBeUndefined();
        expect(record.closeTime).toEqual(expect.any(String));
        expect(record.executionTime).toBeGreaterThanOrEqual(0);
      });

      it('leadFollowUp of an unknown lead FAILS with LEAD_NOT_FOUND', async () => {
        const record = await settle(mine, await started(mine, 'leadFollowUp', { lead_id: randomUUID() }));
        expect(record.failure!.message).toMatch(/^LEAD_NOT_FOUND: /);
      });

      it('humanIntervention waits for the humanResponse signal, then completes with the answer', async () => {
        const id = await waitingRun(mine);
        await new Promise((r) => setTimeout(r, 1200));
        expect((await detail(mine, id)).body.data.status).toBe('RUNNING');
        const signal = (t: Tenant) =>
          call(signalRoute, {
            method: 'POST',
            path: `/api/logs/workflows/${id}/signal`,
            params: { workflowId: id },
            headers: auth(t),
            body: { site_id: t.siteId, signal: 'humanResponse', payload: { approved: true } },
          });
        expect((await signal(other)).status).toBe(404);
        expect((await signal(mine)).status).toBe(202);
        const record = await settle(mine, id);
        expect(record).toMatchObject({ status: 'COMPLETED', result: { question: 'Approve the campaign?', answer: { approved: true } } });
        expect((await signal(mine)).status).toBe(409);
      });

      it('cancel ends a running run as CANCELLED; a second cancel is 409', async () => {
        const id = await waitingRun(mine);
        const res = await cancel(mine, id);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data).toMatchObject({ workflowId: id, status: 'CANCELLED', closeTime: expect.any(String) });
        expect((await settle(mine, id)).status).toBe('CANCELLED');
        const again = await cancel(mine, id);
        expect(again.status).toBe(409);
        expect(again.body.error.code).toBe('CONFLICT');
      });

      it('terminate ends a running run at once as TERMINATED, with the reason', async () => {
        const id = await waitingRun(mine);
        await under.engine.terminate(mine.siteId, id, 'stopped by the operator');
        const record = await settle(mine, id);
        expect(record.status).toBe('TERMINATED');
        expect(record.failure!.message).toBe('TERMINATED: stopped by the operator');
        await under.engine.terminate(other.siteId, id, 'not yours');
        expect((await detail(mine, id)).body.data.failure.message).toBe('TERMINATED: stopped by the operator');
      });

      it('a run past its timeout ends TIMED_OUT', async () => {
        const id = await waitingRun(mine, 1);
        const record = await settle(mine, id);
        expect(record.status).toBe('TIMED_OUT');
        expect(record.failure!.message).toMatch(/^TIMED_OUT/);
      });
    });

    describe('GET /api/logs/workflows', () => {
      let t: Tenant;
      let ids: string[];
      beforeAll(async () => {
        t = await createTenant();
        ids = [];
        for (let i = 0; i < 5; i++) {
          ids.push(await started(t, 'webhook', { type: `E${i}` }));
          await new Promise((r) => setTimeout(r, 3));
        }
        ids.push(await waitingRun(t));
        for (const id of ids.slice(0, 5)) await settle(t, id);
      });

      it('pages newest first without an empty page announced', async () => {
        const seen: string[] = [];
        let token: string | undefined;
        let pages = 0;
        do {
          const res = await logs(t, { limit: 4, pageToken: token });
          expect(res.status, JSON.stringify(res.body)).toBe(200);
          expect(res.body.workflows.length).toBeGreaterThan(0);
          expect(res.body.pagination.hasMore).toBe(res.body.pagination.nextPageToken !== undefined);
          expect(res.body.meta).toEqual({ site_id: t.siteId, total_found: 6, has_more: res.body.pagination.hasMore });
          expect(res.body.pagination.limit).toBe(4);
          seen.push(...res.body.workflows.map((w: WorkflowRecord) => w.workflowId));
          token = res.body.pagination.nextPageToken;
          pages++;
        } while (token);
        expect(pages).toBe(2);
        expect(seen).toEqual([...ids].reverse());
      });

      it('an exact multiple of the page size ends with hasMore false on the last full page', async () => {
        const first = await logs(t, { limit: 3 });
        const second = await logs(t, { limit: 3, pageToken: first.body.pagination.nextPageToken });
        expect(second.body.workflows).toHaveLength(3);
        expect(second.body.pagination).toEqual({ limit: 3, hasMore: false });
      });

      it('records carry the §2.10 fields', async () => {
        const res = await logs(t, { limit: 100 });
        const done = res.body.workflows.find((w: WorkflowRecord) => w.workflowId === ids[0]);
        expect(Object.keys(done).sort()).toEqual([
          'closeTime',
          'executionTime',
          'input',
          'result',
          'runId',
          'startTime',
          'status',
          'type',
          'workflowId',
        ]);
        expect(done.input).toEqual({ site_id: t.siteId, type: 'E0' });
        const running = res.body.workflows.find((w: WorkflowRecord) => w.workflowId === ids[5]);
        expect(Object.keys(running).sort()).toEqual(['input', 'runId', 'startTime', 'status', 'type', 'workflowId']);
      });

      it('filters by status, type and start time', async () => {
        expect((await logs(t, { status: 'RUNNING' })).body.workflows.map((w: WorkflowRecord) => w.workflowId)).toEqual([ids[5]]);
        expect((await logs(t, { type: 'webhookWorkflow' })).body.meta.total_found).toBe(5);
        const all = (await logs(t, { limit: 100 })).body.workflows as WorkflowRecord[];
        const third = all.find((w) => w.workflowId === ids[2])!;
        const from = await logs(t, { from: third.startTime, limit: 100 });
        expect(from.body.workflows.map((w: WorkflowRecord) => w.workflowId)).toEqual([...ids.slice(2)].reverse());
        const to = await logs(t, { to: third.startTime, limit: 100 });
        expect(to.body.workflows.map((w: WorkflowRecord) => w.workflowId)).toEqual([ids[1], ids[0]]);
        expect((await logs(t, { status: 'DONE' })).status).toBe(400);
      });

      it('shows only the site of the key, ever', async () => {
        const res = await logs(other, { limit: 100 });
        expect(res.body.workflows.some((w: WorkflowRecord) => ids.includes(w.workflowId))).toBe(false);
        expect((await detail(other, ids[0])).status).toBe(404);
        expect((await cancel(other, ids[5])).status).toBe(404);
        expect((await detail(t, ids[0])).status).toBe(200);
        expect((await detail(other, ids[0], t.siteId)).status).toBe(403);
      });

      const bad: [string, Record<string, string | number | undefined>, string][] = [
        ['limit 0', { limit: 0 }, 'INVALID_LIMIT'],
        ['limit 101', { limit: 101 }, 'INVALID_LIMIT'],
        ['limit abc', { limit: 'abc' }, 'INVALID_LIMIT'],
        ['limit 2.5', { limit: 2.5 }, 'INVALID_LIMIT'],
        ['garbage pageToken', { pageToken: 'garbage!!' }, 'INVALID_REQUEST'],
        ['forged pageToken', { pageToken: Buffer.from('[1,"not a date","x"]').toString('base64url') }, 'INVALID_REQUEST'],
        ['missing site_id', { site_id: undefined }, 'INVALID_SITE_ID'],
        ['site_id not a UUID', { site_id: 'abc' }, 'INVALID_SITE_ID'],
      ];
      it.each(bad)('%s → 400 %s', async (_label, query, code) => {
        const res = await call(logsRoute, { path: '/api/logs/workflows', headers: auth(t), query: { site_id: t.siteId, ...query } });
        expect(res.status, JSON.stringify(res.body)).toBe(400);
        expect(res.body.error.code).toBe(code);
      });

      describe('auth matrix', () => {
        authMatrix({
          tenants: () => ({ mine, other }),
          present: presenters.xApiKey,
          write: false,
          send: (headers, siteId) => call(logsRoute, { path: '/api/logs/workflows', headers, query: { site_id: siteId } }),
        });
      });
    });

    describe('agent commands', () => {
      let standIn: LlmStandIn;
      let restoreCommands: Array<() => void> = [];
      beforeAll(async () => {
        standIn = await startLlmStandIn();
        restoreCommands = [useStandIn(standIn), overrideProviders({ commandDispatcher: engineDispatcher })];
      });
      afterAll(async () => {
        for (const r of restoreCommands.reverse()) r();
        await standIn?.close();
      });

      const message = (text: string) =>
        call(cmoMessage, { method: 'POST', path: '/api/agents/cmo/message', headers: auth(mine), body: { site_id: mine.siteId, message: text } });
      async function commandRun(commandId: string): Promise<WorkflowRecord> {
        const res = await logs(mine, { type: 'agentCommandWorkflow', limit: 100 });
        const run = (res.body.workflows as WorkflowRecord[]).find((r) => (r.input as { command_id?: string }).command_id === commandId);
        expect(run, `no run for command ${commandId}`).toBeDefined();
        return settle(mine, run!.workflowId);
      }
      async function finished(commandId: string) {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const command = await getCommand(mine.siteId, commandId);
          if (command && ['completed', 'failed', 'cancelled'].includes(command.status)) return command;
          if (Date.now() > deadline) throw new Error(`command ${commandId} still ${command?.status}`);
          await new Promise((r) => setTimeout(r, 100));
        }
      }

      it('each command is carried out by a run of agentCommandWorkflow, several at a time', async () => {
        standIn.script = (req) => ({ text: `Reply to ${textOf(req.messages.at(-1))}` });
        const sent = await Promise.all(['one', 'two', 'three'].map(message));
        expect(sent.map((r) => r.status)).toEqual([202, 202, 202]);
        const ids = sent.map((r) => r.body.data.command_id as string);
        expect((await Promise.all(ids.map(finished))).map((c) => [c.status, c.reply])).toEqual([
          ['completed', 'Reply to one'],
          ['completed', 'Reply to two'],
          ['completed', 'Reply to three'],
        ]);
        for (const id of ids) {
          expect(await commandRun(id)).toMatchObject({
            type: 'agentCommandWorkflow',
            status: 'COMPLETED',
            input: { command_id: id },
            result: { command_id: id, status: 'completed' },
          });
        }
      });

      it("a failed command ends its run FAILED with the command's code and message", async () => {
        standIn.script = () => ({ status: 400, message: 'context too long' });
        const id = (await message('fail please')).body.data.command_id as string;
        expect(await finished(id)).toMatchObject({ status: 'failed', error: { code: 'MODEL_ERROR' } });
        const run = await commandRun(id);
        expect(run.status).toBe('FAILED');
        expect(run.failure?.message).toContain('MODEL_ERROR');
        expect(run.failure?.message).toContain('context too long');
      });
    });
  });
}

function supportBody(t: Tenant) {
  return {
    conversationId: 'c1',
    userId: 'u1',
    message: 'Where is my order?',
    agentId: 'a1',
    site_id: t.siteId,
    lead_id: 'l1',
    visitor_id: 'v1',
    name: 'Grace',
    email: 'grace@acme-bakeries.io',
    phone: '+1 555 0100',
    lead_notification: 'email',
    origin: 'website',
    origin_message_id: 'm1',
    website_chat_origin: true,
  };
}
