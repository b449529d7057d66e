import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as logsRoute } from '@/app/api/instances/[id]/logs/route';
import { GET as plansRoute } from '@/app/api/instances/[id]/plans/route';
import { GET as getInstanceRoute } from '@/app/api/instances/[id]/route';
import { GET as screenshotRoute } from '@/app/api/instances/[id]/screenshot/route';
import { GET as getRunRoute } from '@/app/api/logs/workflows/[workflowId]/route';
import { POST as actRoute } from '@/app/api/robots/instance/act/route';
import { POST as assistantRoute } from '@/app/api/robots/instance/assistant/route';
import { POST as deleteRoute } from '@/app/api/robots/instance/delete/route';
import { POST as pauseRoute } from '@/app/api/robots/instance/pause/route';
import { POST as resumeRoute } from '@/app/api/robots/instance/resume/route';
import { POST as instanceRoute } from '@/app/api/robots/instance/route';
import { POST as stopRoute } from '@/app/api/robots/instance/stop/route';
import { POST as startWorkflowRoute } from '@/app/api/workflow/[name]/route';
import { overrideProviders, resetProviders } from '@/lib/core/providers';
import { getDb } from '@/lib/db/client';
import { JOB_SCHEMA } from '@/lib/jobs/define';
import { robotProvider } from '@/lib/providers/robots';
import { robotExpiry } from '@/lib/robots/jobs';
import { startBackgroundWork, type BackgroundWork } from '@/lib/worker';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { presenters } from '@/tests/helpers/auth-matrix';
import { setEnv } from '@/tests/helpers/env';
import { call, createKey, createSite, createTenant, type Tenant } from '@/tests/helpers/harness';
import { startLlmStandIn, textOf, useStandIn, type LlmStandIn } from '@/tests/helpers/llm-standin';
import { chromiumChildren, startCdpChromium, startRobotPages, type RobotPages } from '@/tests/helpers/robot-pages';
import { applyWorkflowTestEnv } from '@/tests/helpers/workflow-runs';

/**
 * Robots against the machine's Chromium (local provider) and a Chromium reached over CDP (remote
 * provider), on pages this file serves on 127.0.0.1. Nothing of our pipeline is mocked: routes,
 * database, file storage, the workflow engine and the model stand-in are the real ones.
 */
const ROBOT_ENV: Record<string, string> = {
  OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
  ROBOTS_MAX_PER_SITE: '2',
  ROBOTS_MAX_TOTAL: '6',
  ROBOTS_ACTION_TIMEOUT_MS: '8000',
};

let pages: RobotPages;
let mine: Tenant;
let other: Tenant;
let engine: EmbeddedEngine;
let worker: BackgroundWork;
let restoreEngine: () => void;

beforeAll(async () => {
  applyWorkflowTestEnv();
  setEnv(ROBOT_ENV);
  pages = await startRobotPages();
  engine = new EmbeddedEngine();
  worker = await startBackgroundWork();
  restoreEngine = overrideProviders({ workflowEngine: engine });
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

afterAll(async () => {
  restoreEngine?.();
  await worker?.stop();
  await resetProviders();
  await pages?.close();
  setEnv(Object.fromEntries(Object.keys(ROBOT_ENV).map((k) => [k, undefined])));
});

const key = (t: Tenant = mine) => presenters.bearer(t.key);
const robot = (handler: typeof instanceRoute, path: string, body: Record<string, unknown>, t: Tenant = mine, headers: Record<string, string> = {}) =>
  call(handler, { method: 'POST', path, headers: { ...key(t), ...headers }, body });
const create = (activity = 'Sign the guest book', extra: Record<string, unknown> = {}, t: Tenant = mine) =>
  robot(instanceRoute, '/api/robots/instance', { site_id: t.siteId, activity, ...extra }, t);
const act = (instance_id: string, body: Record<string, unknown>, t: Tenant = mine) =>
  robot(actRoute, '/api/robots/instance/act', { instance_id, ...body }, t);
const op = (name: 'pause' | 'resume' | 'stop' | 'delete', instance_id: string, extra: Record<string, unknown> = {}, t: Tenant = mine) =>
  robot(
    { pause: pauseRoute, resume: resumeRoute, stop: stopRoute, delete: deleteRoute }[name],
    `/api/robots/instance/${name}`,
    { instance_id, ...extra },
    t,
  );
const getInstance = (id: string, t: Tenant = mine) => call(getInstanceRoute, { path: `/api/instances/${id}`, params: { id }, headers: key(t) });
const deleteAll = async (ids: string[]) => {
  for (const id of ids) await op('delete', id);
};

const signGuestBook = (name: string) => [
  { type: 'navigate', url: `${pages.url}/form` },
  { type: 'type', selector: '#name', text: name },
  { type: 'click', selector: '#go' },
  { type: 'wait', selector: '#result' },
  { type: 'extract', selector: '#result' },
];

describe('local provider: the life of a robot', () => {
  it('create → act with actions → pause → resume (cookie and URL survive) → stop → delete', { timeout: 90_000 }, async () => {
    const created = await create();
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { instance, plan } = created.body.data;
    expect(instance).toMatchObject({
      status: 'running',
      instance_type: 'browser',
      user_id: mine.user.id,
      activity: 'Sign the guest book',
      timeout_hours: 1,
    });
    expect(plan).toMatchObject({ title: 'Sign the guest book', plan_type: 'task', status: 'pending', steps: [] });
    expect(robotProvider().running(mine.siteId)).toBe(1);

    const acted = await act(instance.id, { message: 'Sign as Ada', actions: signGuestBook('Ada') });
    expect(acted.status, JSON.stringify(acted.body)).toBe(200);
    const result = acted.body.data;
    expect(result.executed.map((s: any) => s.status)).toEqual(['completed', 'completed', 'completed', 'completed', 'completed']);
    expect(result.executed.at(-1).output).toBe('Hello, Ada');
    expect(result.plan).toMatchObject({ id: plan.id, status: 'completed' });
    expect(result.instance.current_url).toBe(`${pages.url}/result`);

    // Every action is a log entry with a screenshot in file storage.
    const logs = await call(logsRoute, {
      path: `/api/instances/${instance.id}/logs`,
      params: { id: instance.id },
      headers: key(),
      query: { log_type: 'agent_action' },
    });
    expect(logs.body.meta.total).toBe(5);
    expect(logs.body.data.every((l: any) => l.screenshot_url)).toBe(true);
    const logId = logs.body.data[0].id;
    const shot = await call(screenshotRoute, {
      path: `/api/instances/${instance.id}/screenshot`,
      params: { id: instance.id },
      headers: key(),
      query: { log_id: logId },
    });
    expect(shot.status).toBe(200);
    expect(Buffer.from(shot.body.data.data_base64, 'base64').subarray(1, 4).toString()).toBe('PNG');

    const paused = await op('pause', instance.id);
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.data.instance).toMatchObject({ status: 'paused', current_url: `${pages.url}/result`, expires_at: null });
    expect(robotProvider().running(mine.siteId)).toBe(0);
    expect((await op('pause', instance.id)).status).toBe(409);
    expect((await act(instance.id, { message: 'x', actions: [{ type: 'screenshot' }] })).status).toBe(409);

    const resumed = await op('resume', instance.id, { timeout_hours: 2 });
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body.data.instance).toMatchObject({ status: 'running', timeout_hours: 2, current_url: `${pages.url}/result` });
    // The page was reopened at the saved URL and the server saw the saved cookie.
    const read = await act(instance.id, { message: 'Read the greeting', actions: [{ type: 'extract', selector: '#result' }] });
    expect(read.body.data.executed[0].output).toBe('Hello, Ada');
    expect((await op('resume', instance.id)).status).toBe(409);

    const stopped = await op('stop', instance.id);
    expect(stopped.body.data.instance.status).toBe('stopped');
    expect((await op('stop', instance.id)).status).toBe(409);
    expect(robotProvider().running(mine.siteId)).toBe(0);

    const deleted = await op('delete', instance.id);
    expect(deleted.body).toEqual({ success: true, data: { id: instance.id, deleted: true } });
    expect((await getInstance(instance.id)).status).toBe(404);
  });

  it('resuming a stopped instance starts a fresh browser (no saved state)', async () => {
    const { instance } = (await create()).body.data;
    await act(instance.id, { message: 'sign', actions: signGuestBook('Bob') });
    await op('stop', instance.id);
    const again = await create('Look at the result', { instance_id: instance.id });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ created: false, instance: { status: 'running', activity: 'Look at the result' } });
    const read = await act(instance.id, {
      message: 'read',
      actions: [
        { type: 'navigate', url: `${pages.url}/result` },
        { type: 'extract', selector: '#result' },
      ],
    });
    expect(read.body.data.executed[1].output).toBe('Nobody signed');
    await deleteAll([instance.id]);
  });

  it('a failed step is recorded and stops the run of steps; the plan stays open', async () => {
    const { instance } = (await create()).body.data;
    const res = await act(instance.id, {
      message: 'click something missing',
      actions: [
        { type: 'navigate', url: `${pages.url}/form` },
        { type: 'click', selector: '#missing' },
        { type: 'extract', selector: 'h1' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.executed.map((s: any) => s.status)).toEqual(['completed', 'failed']);
    expect(res.body.data.plan.status).toBe('in_progress');
    expect(res.body.data.plan.steps[2].status).toBe('pending');
    // The caller marks the failed step done and continues: the pending step runs.
    const next = await act(instance.id, { message: 'go on', step_status: 'completed', actions: [{ type: 'screenshot' }] });
    expect(next.body.data.executed.map((s: any) => s.description)).toEqual(['Read the text of h1', 'Take a screenshot']);
    expect(next.body.data.plan.status).toBe('completed');
    const errors = await call(logsRoute, {
      path: `/api/instances/${instance.id}/logs`,
      params: { id: instance.id },
      headers: key(),
      query: { level: 'error' },
    });
    expect(errors.body.data[0]).toMatchObject({ log_type: 'agent_action', level: 'error' });
    await deleteAll([instance.id]);
  });

  it('the outbound guard refuses private hosts: navigation fails and in-page requests are aborted', async () => {
    const { instance } = (await create()).body.data;
    const target = `http://localhost:${pages.port}/secret`;
    const res = await act(instance.id, {
      message: 'probe',
      actions: [{ type: 'navigate', url: 'http://169.254.169.254/latest/meta-data/' }],
    });
    expect(res.body.data.executed[0]).toMatchObject({ status: 'failed' });
    expect(res.body.data.executed[0].error).toMatch(/non-public address/);
    const probe = await act(instance.id, {
      message: 'probe',
      actions: [
        { type: 'navigate', url: `${pages.url}/probe?target=${encodeURIComponent(target)}` },
        { type: 'wait', selector: '#probe:text("blocked")' },
        { type: 'extract', selector: '#probe' },
      ],
    });
    expect(probe.body.data.executed.at(-1).output).toBe('blocked');
    expect(pages.hits.get('/secret') ?? 0).toBe(0);
    await deleteAll([instance.id]);
  });

  it('validates bodies: activity ≥ 3 characters, uuids, timeout_hours 0.1–24, step_status values', async () => {
    const cases: [typeof instanceRoute, string, Record<string, unknown>][] = [
      [instanceRoute, '/api/robots/instance', { site_id: mine.siteId, activity: 'ab' }],
      [instanceRoute, '/api/robots/instance', { site_id: mine.siteId, activity: 'abc', instance_id: 'nope' }],
      [resumeRoute, '/api/robots/instance/resume', { instance_id: crypto.randomUUID(), timeout_hours: 0.05 }],
      [resumeRoute, '/api/robots/instance/resume', { instance_id: crypto.randomUUID(), timeout_hours: 25 }],
      [actRoute, '/api/robots/instance/act', { instance_id: crypto.randomUUID(), message: 'x', step_status: 'done' }],
      [actRoute, '/api/robots/instance/act', { instance_id: crypto.randomUUID(), message: 'x', actions: [{ type: 'shell', command: 'rm' }] }],
      [stopRoute, '/api/robots/instance/stop', { instance_id: '123' }],
      [pauseRoute, '/api/robots/instance/pause', {}],
      [assistantRoute, '/api/robots/instance/assistant', { message: 'x', use_sdk_tools: true }],
    ];
    for (const [handler, path, body] of cases) {
      const res = await robot(handler, path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
  });

  it("another site's instance is 404 on every robot route, and nothing changes", async () => {
    const { instance } = (await create('Theirs', {}, other)).body.data;
    for (const name of ['pause', 'resume', 'stop', 'delete'] as const) expect((await op(name, instance.id)).status).toBe(404);
    expect((await act(instance.id, { message: 'x', actions: [{ type: 'screenshot' }] })).status).toBe(404);
    expect((await create('Mine now', { instance_id: instance.id })).status).toBe(404);
    expect((await robot(assistantRoute, '/api/robots/instance/assistant', { message: 'hi', instance_id: instance.id })).status).toBe(404);
    expect((await getInstance(instance.id, other)).body.data.status).toBe('running');
    await op('delete', instance.id, {}, other);
  });
});

describe('caps and timeouts', () => {
  it('holds the per-site cap (429, nothing kept) and frees the slot on pause', { timeout: 90_000 }, async () => {
    const a = (await create()).body.data.instance;
    const b = (await create()).body.data.instance;
    const third = await create();
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('RATE_LIMITED');
    expect(third.headers.get('retry-after')).toBe('60');
    expect(robotProvider().running(mine.siteId)).toBe(2);
    // Another site is not held back by this one.
    const theirs = await create('Theirs', {}, other);
    expect(theirs.status).toBe(201);
    await op('pause', a.id);
    const resumedOther = await op('resume', b.id);
    expect(resumedOther.status).toBe(409);
    const fourth = await create();
    expect(fourth.status).toBe(201);
    expect((await op('resume', a.id)).status).toBe(429);
    expect((await getInstance(a.id)).body.data.status).toBe('paused');
    await deleteAll([a.id, b.id, fourth.body.data.instance.id]);
    await op('delete', theirs.body.data.instance.id, {}, other);
    expect(robotProvider().running(mine.siteId)).toBe(0);
    expect(robotProvider().running(other.siteId)).toBe(0);
  });

  it('an account holds at most its share of the slots, across its sites; other accounts still get theirs', { timeout: 90_000 }, async () => {
    // ROBOTS_MAX_TOTAL 6: an account holds at most 3 (half, and within its plan's robots_per_account).
    const owner = await createTenant();
    const secondSite = await createSite(owner.user, 'Second site');
    const second: Tenant = { ...owner, siteId: secondSite, key: (await createKey(owner.user, secondSite)).apiKey };
    const started = [];
    for (const [activity, t] of [
      ['Robot A1', owner],
      ['Robot A2', owner],
      ['Robot B1', second],
    ] as const) {
      const res = await create(activity, {}, t);
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      started.push(res.body.data.instance);
    }
    const over = await create('Robot B2', {}, second);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { running_limit: 3 } } });
    expect(over.body.error.message).toMatch(/account already runs 3 robot browsers/);
    const theirs = await create('Theirs', {}, other);
    expect(theirs.status).toBe(201);
    for (const [t, i] of [
      [owner, started[0]],
      [owner, started[1]],
      [second, started[2]],
    ] as const)
      await op('delete', i.id, {}, t);
    await op('delete', theirs.body.data.instance.id, {}, other);
  });

  it('an instance whose timeout_hours ran out is stopped by its expiry job', async () => {
    const { instance } = (await create('Short job', { timeout_hours: 0.1 })).body.data;
    expect(Date.parse(instance.expires_at) - Date.parse(instance.started_at)).toBe(6 * 60_000);
    // The start queued the instance's expiry job, due when its timeout runs out.
    const db = await getDb();
    const queued = (await db.execute(
      sql`select data, start_after from ${sql.raw(JOB_SCHEMA)}.job where name = ${robotExpiry.name} and data->>'instanceId' = ${instance.id}`,
    )) as unknown as { rows: { data: unknown; start_after: Date | string }[] };
    expect(queued.rows).toHaveLength(1);
    expect(queued.rows[0].data).toEqual({ siteId: mine.siteId, instanceId: instance.id });
    expect(Math.abs(new Date(queued.rows[0].start_after).getTime() - Date.parse(instance.expires_at))).toBeLessThan(1000);
    const ctx = { id: 'test', attempt: 0, retryLimit: 0, signal: new AbortController().signal };
    // Before its time (a job woken early, or one of an earlier start) it leaves the instance alone.
    await robotExpiry.run({ siteId: mine.siteId, instanceId: instance.id }, ctx);
    expect((await getInstance(instance.id)).body.data.status).toBe('running');
    const restore = overrideProviders({ clock: { now: () => Date.now() + 7 * 60_000 } });
    try {
      await robotExpiry.run({ siteId: mine.siteId, instanceId: instance.id }, ctx);
      // Repeated (a retry after a crash): nothing more happens.
      await robotExpiry.run({ siteId: mine.siteId, instanceId: instance.id }, ctx);
    } finally {
      restore();
    }
    const after = (await getInstance(instance.id)).body.data;
    expect(after).toMatchObject({ status: 'stopped', expires_at: null });
    expect(robotProvider().session(instance.id)).toBeUndefined();
    const logs = await call(logsRoute, {
      path: `/api/instances/${instance.id}/logs`,
      params: { id: instance.id },
      headers: key(),
      query: { log_type: 'system' },
    });
    expect(logs.body.data[0].message).toMatch(/timeout ran out/);
    await deleteAll([instance.id]);
  });
});

describe('with a model', () => {
  let llm: LlmStandIn;
  let restoreModel: () => void;
  beforeAll(async () => {
    llm = await startLlmStandIn();
    restoreModel = useStandIn(llm);
    setEnv(ROBOT_ENV);
  });
  afterEach(() => llm.reset());
  afterAll(async () => {
    restoreModel();
    setEnv(ROBOT_ENV);
    await llm.close();
  });

  const planTurn = (name: string) => ({
    text: JSON.stringify({
      mode: 'continue',
      steps: [
        { description: 'Open the guest book', action: { type: 'navigate', url: `${pages.url}/form` } },
        { description: 'Write the name', action: { type: 'type', selector: '#name', text: name, submit: true } },
        { description: 'Read the greeting', action: { type: 'extract', selector: '#result' } },
      ],
    }),
  });

  it('act from a message: the model plans the task and the robot performs it', async () => {
    const { instance } = (await create()).body.data;
    llm.queue(planTurn('Grace'));
    const res = await act(instance.id, { message: 'Sign the guest book as Grace', context: { audience: 'test' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.mode).toBe('continue');
    expect(res.body.data.executed.map((s: any) => s.status)).toEqual(['completed', 'completed', 'completed']);
    expect(res.body.data.executed[2].output).toBe('Hello, Grace');
    const asked = JSON.parse(textOf(llm.requests[0].messages.find((m) => m.role === 'user')));
    expect(asked).toMatchObject({ activity: 'Sign the guest book', message: 'Sign the guest book as Grace', context: { audience: 'test' } });
    expect(asked.page.url).toBe('about:blank');

    // A model answer that is not a plan is a 502, and nothing is performed.
    llm.queue({ text: 'I would rather not.' });
    const bad = await act(instance.id, { message: 'again' });
    expect(bad.status).toBe(502);
    expect(bad.body.error.code).toBe('PROVIDER_ERROR');
    await deleteAll([instance.id]);
  });

  it('assistant: a promptRobot run on a new instance, streamed with the run id in a header', async () => {
    llm.queue(planTurn('Linus'));
    const res = await fetchStream({ message: 'Sign the guest book as Linus', site_id: mine.siteId });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-workflow-run-id')).toBeTruthy();
    const events = res.events;
    expect(events[0].event).toBe('accepted');
    const { instance_id, workflowId } = events[0].data;
    expect(res.headers.get('x-workflow-id')).toBe(workflowId);
    expect(events.filter((e) => e.event === 'log').map((e) => e.data.message)).toEqual(
      expect.arrayContaining(['Browser started', 'Open the guest book', 'Write the name', 'Read the greeting']),
    );
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    expect(done.data).toMatchObject({ status: 'COMPLETED', type: 'promptRobotWorkflow', result: { instance_id, plan_status: 'completed' } });
    expect(done.data.result.steps[2].output).toBe('Hello, Linus');
    await deleteAll([instance_id]);
  });

  it('startRobot, promptRobot and stopRobot workflows drive the same provider', { timeout: 90_000 }, async () => {
    const start = await startRun('startRobot', { activity: 'Sign the guest book' });
    expect(start).toMatchObject({ status: 'COMPLETED', result: { status: 'running' } });
    const instanceId = (start.result as any).instance_id;
    expect(robotProvider().session(instanceId)).toBeDefined();
    llm.queue(planTurn('Ken'));
    const prompt = await startRun('promptRobot', { instance_id: instanceId, prompt: 'Sign as Ken' });
    expect(prompt).toMatchObject({ status: 'COMPLETED', result: { plan_status: 'completed' } });
    const stop = await startRun('stopRobot', { instance_id: instanceId });
    expect(stop).toMatchObject({ status: 'COMPLETED', result: { status: 'stopped' } });
    expect(robotProvider().session(instanceId)).toBeUndefined();
    const again = await startRun('stopRobot', { instance_id: instanceId });
    expect(again.status).toBe('FAILED');
    expect((again.failure as any).message).toMatch(/Cannot stop an instance that is stopped/);
    await deleteAll([instanceId]);
  });
});

describe('without a model or a browser', () => {
  it('act without actions and assistant answer 503 MODEL_NOT_CONFIGURED; nothing is created', async () => {
    const { instance } = (await create()).body.data;
    const res = await act(instance.id, { message: 'do it' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('MODEL_NOT_CONFIGURED');
    const plans = await call(plansRoute, { path: `/api/instances/${instance.id}/plans`, params: { id: instance.id }, headers: key() });
    expect(plans.body.meta.total).toBe(1);
    const assistant = await robot(assistantRoute, '/api/robots/instance/assistant', { message: 'hello', site_id: mine.siteId });
    expect(assistant.status).toBe(503);
    expect(assistant.body.error.code).toBe('MODEL_NOT_CONFIGURED');
    await deleteAll([instance.id]);
  });

  it('no usable browser is 503 PROVIDER_NOT_CONFIGURED and leaves no instance behind', async () => {
    for (const vars of [{ ROBOTS_PROVIDER: 'none' }, { ROBOTS_CHROMIUM_PATH: '/nonexistent/chromium' }, { ROBOTS_PROVIDER: 'cdp' }]) {
      setEnv(vars);
      try {
        const res = await create('Anything at all', {}, other);
        expect(res.status, JSON.stringify(vars)).toBe(503);
        expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
      } finally {
        setEnv(Object.fromEntries(Object.keys(vars).map((k) => [k, undefined])));
        setEnv(ROBOT_ENV);
      }
    }
    const { listInstances } = await import('@/lib/robots/instances-repo');
    expect((await listInstances(other.siteId, { limit: 50, offset: 0 })).items.filter((i) => i.name === 'Anything at all')).toEqual([]);
  });
});

describe('remote provider (CDP)', () => {
  // Every wait here ends on a protocol event (DevTools answering, a page's load, a selector); the
  // bounds are generous so a loaded machine only makes the test slower, never failing it.
  it('drives a browser reached over the DevTools protocol through the same interface', { timeout: 300_000 }, async () => {
    await resetProviders();
    const remote = await startCdpChromium();
    setEnv({ ROBOTS_CDP_URL: remote.endpoint, ROBOTS_ACTION_TIMEOUT_MS: '60000' });
    try {
      expect(robotProvider().kind).toBe('cdp');
      const { instance } = (await create()).body.data;
      const res = await act(instance.id, { message: 'sign', actions: signGuestBook('Remote') });
      expect(res.body.data.executed.at(-1).output).toBe('Hello, Remote');
      await op('pause', instance.id);
      await op('resume', instance.id);
      const read = await act(instance.id, { message: 'read', actions: [{ type: 'extract', selector: '#result' }] });
      expect(read.body.data.executed[0].output).toBe('Hello, Remote');
      await deleteAll([instance.id]);
    } finally {
      await resetProviders();
      setEnv({ ROBOTS_CDP_URL: undefined });
      setEnv(ROBOT_ENV);
      await remote.close();
    }
  });
});

describe('cleanup', () => {
  it('leaves no Chromium process behind', async () => {
    await resetProviders();
    expect(chromiumChildren()).toEqual([]);
  });
});

async function startRun(name: string, body: Record<string, unknown>) {
  const res = await call(startWorkflowRoute, {
    method: 'POST',
    path: `/api/workflow/${name}`,
    params: { name },
    headers: key(),
    body: { site_id: mine.siteId, ...body },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const workflowId = res.body.workflowId;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const run = await call(getRunRoute, {
      path: `/api/logs/workflows/${workflowId}`,
      params: { workflowId },
      headers: key(),
      query: { site_id: mine.siteId },
    });
    if (run.body.data.status !== 'RUNNING') return run.body.data;
    if (Date.now() > deadline) throw new Error(`run ${workflowId} still running`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function fetchStream(body: Record<string, unknown>) {
  const req = new Request('http://localhost:3000/api/robots/instance/assistant', {
    method: 'POST',
    headers: { ...key(), 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify(body),
  });
  const res = await assistantRoute(req, { params: Promise.resolve({}) });
  const text = await res.text();
  const events = text
    .split('\n\n')
    .filter(Boolean)
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? '';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null');
      return { event, data };
    });
  return { status: res.status, headers: res.headers, events };
}
