import { randomBytes } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { createActivities } from '@/lib/worker/activities';
import { HUMAN_RESPONSE_SIGNAL } from '@/lib/workflows/definitions';
import type { WorkflowRecord, WorkflowStatus } from '@/lib/workflows/engine';
import { TemporalEngine } from '@/lib/workflows/engines/temporal/engine';
import type { TemporalSettings } from '@/lib/workflows/engines/temporal/settings';
import { reserveStartKey } from '@/lib/workflows/engines/temporal/start-keys-repo';
import { createTemporalWorker, type TemporalWorker } from '@/lib/workflows/engines/temporal/worker';
import { createTenant } from '../helpers/harness';

/**
 * The Temporal adapter against a real dev server (tests/helpers/temporal-global-setup.ts) with a
 * worker in this process running the real catalog and the real activities on this file's database.
 */
const server = inject('temporal');
if (!server) console.warn('Temporal suite skipped: no temporal CLI (see docs/OPERATIONS.md "Running with Temporal").');

describe.skipIf(!server)('Temporal engine', () => {
  let settings: TemporalSettings;
  let engine: TemporalEngine;
  let worker: TemporalWorker;
  let running: Promise<void>;
  let siteA: string;
  let siteB: string;

  beforeAll(async () => {
    // The test process keeps its own signal handling; the SDK logs errors only.
    Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('ERROR') });
    // A task queue of this file's own: runs of other files never reach this worker.
    settings = { address: server!.address, namespace: server!.namespace, taskQueue: `test-${randomBytes(6).toString('hex')}` };
    engine = new TemporalEngine(settings);
    worker = await createTemporalWorker({ settings, activities: createActivities(), workflowBundle: { code: server!.workflowBundle } });
    running = worker.run();
    [siteA, siteB] = (await Promise.all([createTenant(), createTenant()])).map((t) => t.siteId);
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await engine?.close();
  });

  let seq = 0;
  const workflowId = (kebab: string, siteId: string) => `${kebab}-${siteId}-${Date.now()}-${++seq}`;

  const startWebhook = (siteId: string, extra: Record<string, unknown> = {}) =>
    engine.start({
      siteId,
      type: 'webhookWorkflow',
      workflowId: workflowId('webhook', siteId),
      input: { site_id: siteId, type: 'INSERT', table: 'leads', record: { id: 1 }, ...extra },
    });

  const startHuman = (siteId: string, timeoutMs?: number) =>
    engine.start({
      siteId,
      type: 'humanInterventionWorkflow',
      workflowId: workflowId('human-intervention', siteId),
      input: { site_id: siteId, question: 'Ship it?', timeout_seconds: 60 },
      timeoutMs,
    });

  /** Visibility and execution are asynchronous: poll until the record reaches the state. */
  async function until(siteId: string, id: string, done: (r: WorkflowRecord) => boolean): Promise<WorkflowRecord> {
    const deadline = Date.now() + 20_000;
    let last: WorkflowRecord | undefined;
    while (Date.now() < deadline) {
      last = await engine.get(siteId, id);
      if (last && done(last)) return last;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`run ${id} never reached the expected state; last seen ${JSON.stringify(last)}`);
  }
  const closedAs = (status: WorkflowStatus) => (r: WorkflowRecord) => r.status === status;

  async function listed(siteId: string, count: number, filters: { status?: WorkflowStatus; type?: string } = {}) {
    const deadline = Date.now() + 20_000;
    for (;;) {
      const page = await engine.list({ siteId, limit: 100, ...filters });
      if (page.totalFound >= count || Date.now() > deadline) return page;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  async function apiError(promise: Promise<unknown>): Promise<ApiError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }

  it('starts a run that the worker executes to COMPLETED, with input and result in the record', async () => {
    const started = await startWebhook(siteA);
    expect(started.workflowId).toMatch(new RegExp(`^webhook-${siteA}-\\d+-\\d+$`));
    expect(started.runId).toMatch(/^[0-9a-f-]{36}$/);

    const record = await until(siteA, started.workflowId, closedAs('COMPLETED'));
    expect(record).toMatchObject({
      workflowId: started.workflowId,
      runId: started.runId,
      type: 'webhookWorkflow',
      status: 'COMPLETED',
      input: { site_id: siteA, type: 'INSERT', table: 'leads', record: { id: 1 } },
      result: { type: 'INSERT', table: 'leads' },
    });
    expect((record.result as { event_id: unknown }).event_id).toBeTruthy();
    expect(record.failure).toBeUndefined();
    expect(Date.parse(record.closeTime!)).toBeGreaterThanOrEqual(Date.parse(record.startTime));
    expect(record.executionTime).toBe(Date.parse(record.closeTime!) - Date.parse(record.startTime));
  });

  it('returns the same run for a start retried with the same idempotency key, per site', async () => {
    const key = `key-${randomBytes(4).toString('hex')}`;
    const start = (siteId: string) =>
      engine.start({ siteId, type: 'webhookWorkflow', workflowId: workflowId('webhook', siteId), input: { site_id: siteId }, idempotencyKey: key });
    const first = await start(siteA);
    expect(first.created).toBe(true);
    expect(await start(siteA)).toEqual({ workflowId: first.workflowId, runId: first.runId, created: false });
    expect(await engine.findByIdempotencyKey(siteA, key)).toEqual({ workflowId: first.workflowId, runId: first.runId });
    expect(await engine.findByIdempotencyKey(siteA, `${key}-unused`)).toBeUndefined();
    const otherSite = await start(siteB);
    expect(otherSite.created).toBe(true);
    expect(otherSite.workflowId).not.toBe(first.workflowId);

    // A first start that reserved its key but never reached the cluster: the retry starts that run.
    const reserved = workflowId('webhook', siteA);
    await reserveStartKey(siteA, 'interrupted', reserved);
    const resumed = await engine.start({
      siteId: siteA,
      type: 'webhookWorkflow',
      workflowId: workflowId('webhook', siteA),
      input: { site_id: siteA },
      idempotencyKey: 'interrupted',
    });
    expect(resumed).toMatchObject({ workflowId: reserved, created: false });
    await until(siteA, reserved, closedAs('COMPLETED'));
    expect(
      await engine.start({
        siteId: siteA,
        type: 'webhookWorkflow',
        workflowId: workflowId('webhook', siteA),
        input: {},
        idempotencyKey: 'interrupted',
      }),
    ).toEqual(resumed);
  });

  it('refuses a second run under a workflow id already used', async () => {
    const first = await startWebhook(siteA);
    const again = engine.start({ siteId: siteA, type: 'webhookWorkflow', workflowId: first.workflowId, input: { site_id: siteA } });
    expect((await apiError(again)).code).toBe('CONFLICT');
  });

  it('fails a run whose required service is not configured, with the reason and its cause', async () => {
    const started = await engine.start({
      siteId: siteA,
      type: 'leadGenerationWorkflow',
      workflowId: workflowId('lead-generation', siteA),
      input: { site_id: siteA },
    });
    const record = await until(siteA, started.workflowId, closedAs('FAILED'));
    expect(record.failure?.message).toMatch(/^MODEL_NOT_CONFIGURED: /);
    expect(record.failure?.cause).toMatchObject({ message: record.failure?.message, source: 'activity:generateText' });
    expect(record.failure?.cause?.stackTrace).toMatch(/WorkflowFailedError/);
    expect(record.result).toBeUndefined();
  });

  it('cancels a waiting run (CANCELLED), counts it as running before; a second cancel changes nothing', async () => {
    const started = await startHuman(siteA);
    await until(siteA, started.workflowId, closedAs('RUNNING'));
    await expect.poll(() => engine.countRunning(siteA), { timeout: 20_000 }).toBeGreaterThanOrEqual(1);

    await engine.cancel(siteA, started.workflowId);
    const record = await until(siteA, started.workflowId, closedAs('CANCELLED'));
    expect(record.closeTime).toBeDefined();
    expect(record.failure?.message).toBe('CANCELLED: the run was cancelled on request');
    await engine.cancel(siteA, started.workflowId);
    await engine.terminate(siteA, started.workflowId, 'too late');
    expect(await engine.get(siteA, started.workflowId)).toEqual(record);
  });

  it('delivers a signal to a waiting run, which completes with it', async () => {
    const started = await startHuman(siteA);
    await engine.signal(siteA, started.workflowId, HUMAN_RESPONSE_SIGNAL, { approved: true });
    const record = await until(siteA, started.workflowId, closedAs('COMPLETED'));
    expect(record.result).toEqual({ question: 'Ship it?', answer: { approved: true } });
  });

  it('terminates (TERMINATED, with the reason) and times out (TIMED_OUT)', async () => {
    const toTerminate = await startHuman(siteA);
    await engine.terminate(siteA, toTerminate.workflowId, 'operator stop');
    const terminated = await until(siteA, toTerminate.workflowId, closedAs('TERMINATED'));
    expect(terminated.failure?.message).toBe('TERMINATED: operator stop');

    const toTimeOut = await startHuman(siteA, 1_000);
    const timedOut = await until(siteA, toTimeOut.workflowId, closedAs('TIMED_OUT'));
    expect(timedOut.executionTime).toBeGreaterThanOrEqual(1_000);
    expect(timedOut.failure?.message).toMatch(/^TIMED_OUT: /);
  });

  it('pages a site’s runs with opaque tokens: every run once, no empty page with a token', async () => {
    const site = (await createTenant()).siteId;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await startWebhook(site, { record: { i } })).workflowId);
    for (const id of ids) await until(site, id, closedAs('COMPLETED'));
    expect((await listed(site, 5)).totalFound).toBe(5);

    const seen: string[] = [];
    const sizes: number[] = [];
    let pageToken: string | undefined;
    do {
      const page = await engine.list({ siteId: site, limit: 2, pageToken });
      expect(page.totalFound).toBe(5);
      expect(page.records.length).toBeGreaterThan(0);
      sizes.push(page.records.length);
      seen.push(...page.records.map((r) => r.workflowId));
      pageToken = page.nextPageToken;
      if (pageToken) expect(pageToken).toMatch(/^[\w-]+\.[\w-]{22}$/);
    } while (pageToken);
    expect(sizes).toEqual([2, 2, 1]);
    expect(seen.sort()).toEqual([...ids].sort());

    // Exactly one page's worth: the last page carries no token.
    const full = await engine.list({ siteId: site, limit: 5 });
    expect(full.records).toHaveLength(5);
    expect(full.nextPageToken).toBeUndefined();
  });

  it('filters by status, type and start time', async () => {
    const site = (await createTenant()).siteId;
    const done = await startWebhook(site);
    await until(site, done.workflowId, closedAs('COMPLETED'));
    const waiting = await startHuman(site);
    await until(site, waiting.workflowId, closedAs('RUNNING'));
    await listed(site, 2);

    const ids = async (q: Parameters<TemporalEngine['list']>[0]) => (await engine.list(q)).records.map((r) => r.workflowId);
    expect(await ids({ siteId: site, limit: 20, status: 'RUNNING' })).toEqual([waiting.workflowId]);
    expect(await ids({ siteId: site, limit: 20, status: 'COMPLETED' })).toEqual([done.workflowId]);
    expect(await ids({ siteId: site, limit: 20, type: 'webhookWorkflow' })).toEqual([done.workflowId]);
    expect(await ids({ siteId: site, limit: 20, from: new Date(Date.now() + 60_000) })).toEqual([]);
    expect((await ids({ siteId: site, limit: 20, to: new Date(Date.now() + 60_000) })).sort()).toEqual([done.workflowId, waiting.workflowId].sort());
    expect(await engine.countRunning(site)).toBe(1);
    await engine.terminate(site, waiting.workflowId, 'test over');
  });

  it('isolates sites: another site’s run is invisible and untouched, tokens are bound to their query', async () => {
    const own = await startHuman(siteB);
    await until(siteB, own.workflowId, closedAs('RUNNING'));
    await listed(siteB, 1);

    const listA = await engine.list({ siteId: siteA, limit: 100 });
    expect(listA.records.map((r) => r.workflowId)).not.toContain(own.workflowId);
    expect(await engine.get(siteA, own.workflowId)).toBeUndefined();
    // Acting on it as site A leaves it alone (the routes answer 404 from their own read first).
    await engine.signal(siteA, own.workflowId, HUMAN_RESPONSE_SIGNAL, 'no');
    await engine.cancel(siteA, own.workflowId);
    await engine.terminate(siteA, own.workflowId, 'not yours');
    expect((await engine.get(siteB, own.workflowId))?.status).toBe('RUNNING');

    // A token of site A's listing is refused for site B, and for another filter of site A.
    const pageA = await engine.list({ siteId: siteA, limit: 1 });
    expect(pageA.nextPageToken).toBeDefined();
    for (const query of [
      { siteId: siteB, limit: 1, pageToken: pageA.nextPageToken },
      { siteId: siteA, limit: 1, pageToken: pageA.nextPageToken, status: 'FAILED' as const },
      { siteId: siteA, limit: 1, pageToken: 'not-a-token' },
      { siteId: siteA, limit: 1, pageToken: `${Buffer.from('{"s":"x"}').toString('base64url')}.${'A'.repeat(22)}` },
    ]) {
      expect((await apiError(engine.list(query))).code).toBe('INVALID_REQUEST');
    }
    // Temporal answers a corrupted token of its own with an internal error: a tampered token is
    // refused before it gets there.
    const [body, mac] = pageA.nextPageToken!.split('.');
    const inner = JSON.parse(Buffer.from(body, 'base64url').toString());
    inner.t = Buffer.from(Buffer.from(inner.t, 'base64url').toString().replace(/[0-9]/g, 'x')).toString('base64url');
    const tampered = `${Buffer.from(JSON.stringify(inner)).toString('base64url')}.${mac}`;
    expect((await apiError(engine.list({ siteId: siteA, limit: 1, pageToken: tampered }))).code).toBe('INVALID_REQUEST');

    await engine.terminate(siteB, own.workflowId, 'test over');
  });

  it('answers engine errors as WORKFLOW_EXECUTION_ERROR / WORKFLOW_QUERY_ERROR when the cluster is unreachable', async () => {
    // Not closed: the client's gRPC retry timers outlive the call deadline, and a retry that fires on
    // a closed channel throws from its timer. The lazy connection holds nothing once they give up.
    const down = new TemporalEngine({ ...settings, address: '127.0.0.1:1' }, 2_000);
    const start = await apiError(down.start({ siteId: siteA, type: 'webhookWorkflow', workflowId: workflowId('webhook', siteA), input: {} }));
    expect(start).toMatchObject({ code: 'WORKFLOW_EXECUTION_ERROR', status: 500 });
    expect(await apiError(down.list({ siteId: siteA, limit: 20 }))).toMatchObject({ code: 'WORKFLOW_QUERY_ERROR', status: 500 });
  });
});
