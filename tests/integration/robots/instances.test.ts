import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { GET as listLogsRoute, POST as addLogRoute } from '@/app/api/instances/[id]/logs/route';
import { GET as listPlansRoute, POST as addPlanRoute } from '@/app/api/instances/[id]/plans/route';
import { DELETE as deleteRoute, GET as getRoute, PUT as putRoute } from '@/app/api/instances/[id]/route';
import { GET as screenshotRoute } from '@/app/api/instances/[id]/screenshot/route';
import { GET as listRoute, POST as createRoute } from '@/app/api/instances/route';
import { getDb } from '@/lib/db/client';
import { presenters } from '@/tests/helpers/auth-matrix';
import { call, createTenant, createUser, type CallOptions, type Tenant } from '@/tests/helpers/harness';

/** The instance records (spec §4.9): fields, filters, pages, the state machine, logs and plans, and isolation between sites. */
let mine: Tenant;
let other: Tenant;

beforeAll(async () => {
  [mine, other] = await Promise.all([createTenant(), createTenant()]);
});

const key = (t: Tenant = mine) => presenters.xApiKey(t.key);
const create = (body: Record<string, unknown>, t: Tenant = mine) =>
  call(createRoute, {
    method: 'POST',
    path: '/api/instances',
    headers: key(t),
    body: { site_id: t.siteId, user_id: t.user.id, name: 'Browser one', ...body },
  });
const get = (id: string, t: Tenant = mine) => call(getRoute, { path: `/api/instances/${id}`, params: { id }, headers: key(t) });
/** A call to `/api/instances/{id}<sub>` with the caller's key. */
const onInstance = (handler: Parameters<typeof call>[0], id: string, sub = '', o: Pick<CallOptions, 'method' | 'body' | 'query'> = {}) =>
  call(handler, { ...o, path: `/api/instances/${id}${sub}`, params: { id }, headers: key() });
const put = (id: string, body: Record<string, unknown>, t: Tenant = mine) =>
  call(putRoute, { method: 'PUT', path: `/api/instances/${id}`, params: { id }, headers: key(t), body });

describe('instances', () => {
  it('creates with defaults, hides environment variable values, and stores them encrypted', async () => {
    const res = await create({ configuration: { viewport: 'desktop' }, environment_variables: { API_TOKEN: 's3cr3t-value' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      site_id: mine.siteId,
      user_id: mine.user.id,
      name: 'Browser one',
      instance_type: 'browser',
      status: 'uninstantiated',
      agent_id: null,
      configuration: { viewport: 'desktop' },
      environment_variables: { API_TOKEN: '********' },
      screenshot_url: null,
      timeout_hours: 1,
    });
    const db = await getDb();
    const stored = (await db.execute(
      sql`select environment_variables_sealed as v from remote_instances where id = ${res.body.data.id}`,
    )) as unknown as { rows: { v: string }[] };
    expect(stored.rows[0].v).toMatch(/^v1\./);
    expect(stored.rows[0].v).not.toContain('s3cr3t');
    expect((await get(res.body.data.id)).body.data).toEqual(res.body.data);
  });

  it('validates the body (400) and requires a user who owns the site (403)', async () => {
    const cases: [Record<string, unknown>, number][] = [
      [{ name: '' }, 400],
      [{ user_id: 'not-a-uuid' }, 400],
      [{ instance_type: 'mainframe' }, 400],
      [{ status: 'running' }, 400],
      [{ agent_id: 'x' }, 400],
      [{ environment_variables: { '1BAD': 'x' } }, 400],
      [{ configuration: 'nope' }, 400],
      [{ extra: true }, 400],
      [{ user_id: other.user.id }, 403],
      [{ user_id: crypto.randomUUID() }, 403],
    ];
    for (const [body, status] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.success).toBe(false);
    }
    const stranger = await createUser();
    expect((await create({ user_id: stranger.id })).status).toBe(403);
  });

  it('lists newest first with filters, default limit 50 and offset 0', async () => {
    const t = await createTenant();
    const ids: string[] = [];
    for (const [i, status] of (['uninstantiated', 'pending', 'pending'] as const).entries()) {
      ids.push((await create({ name: `n${i}`, status, instance_type: i === 2 ? 'ubuntu' : 'browser' }, t)).body.data.id);
    }
    const all = await call(listRoute, { path: '/api/instances', headers: key(t) });
    expect(all.body.data.map((i: any) => i.id)).toEqual([...ids].reverse());
    expect(all.body.meta).toEqual({ total: 3, limit: 50, offset: 0, has_more: false });
    const pending = await call(listRoute, { path: '/api/instances', headers: key(t), query: { status: 'pending', site_id: t.siteId } });
    expect(pending.body.data.map((i: any) => i.id)).toEqual([ids[2], ids[1]]);
    const ubuntu = await call(listRoute, { path: '/api/instances', headers: key(t), query: { instance_type: 'ubuntu' } });
    expect(ubuntu.body.meta.total).toBe(1);
    const page = await call(listRoute, { path: '/api/instances', headers: key(t), query: { limit: 1, offset: 1 } });
    expect(page.body.data.map((i: any) => i.id)).toEqual([ids[1]]);
    expect(page.body.meta.has_more).toBe(true);
    for (const query of [{ status: 'sleeping' }, { limit: 0 }, { offset: -1 }, { site_id: other.siteId }]) {
      const res = await call(listRoute, { path: '/api/instances', headers: key(t), query });
      expect(res.status, JSON.stringify(query)).toBe(query.site_id ? 403 : 400);
    }
  });

  it('updates fields; status follows the state machine (impossible transitions are 409)', async () => {
    const { id } = (await create({})).body.data;
    const renamed = await put(id, { name: 'Renamed', agent_id: crypto.randomUUID(), environment_variables: { A: '1', B: '2' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed', environment_variables: { A: '********', B: '********' } });
    expect((await put(id, { agent_id: null })).body.data.agent_id).toBeNull();
    // uninstantiated → paused / starting / error: not an operation, or not from here.
    for (const status of ['paused', 'starting', 'stopping', 'error', 'pending']) {
      const res = await put(id, { status });
      expect(res.status, status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
    }
    expect((await put(id, { status: 'uninstantiated' })).body.data.status).toBe('uninstantiated');
    expect((await put(id, { status: 'stopped' })).body.data.status).toBe('stopped');
    expect((await put(id, { status: 'paused' })).status).toBe(409);
    expect((await put(id, {})).status).toBe(400);
    expect((await put(id, { instance_type: 'windows' })).status).toBe(400);
  });

  it('starting an ubuntu instance is 503: no provider runs one, and its status is unchanged', async () => {
    const { id } = (await create({ instance_type: 'ubuntu' })).body.data;
    const res = await put(id, { status: 'running' });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe('PROVIDER_NOT_CONFIGURED');
    expect((await get(id)).body.data.status).toBe('uninstantiated');
  });

  it('logs and plans: documented values, filters and pages', async () => {
    const { id } = (await create({})).body.data;
    const log = (body: Record<string, unknown>) => onInstance(addLogRoute, id, '/logs', { method: 'POST', body });
    const added = await log({ log_type: 'agent_action', level: 'warn', message: 'Clicked', details: { x: 1 } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({
      instance_id: id,
      log_type: 'agent_action',
      level: 'warn',
      message: 'Clicked',
      details: { x: 1 },
      screenshot_url: null,
    });
    expect((await log({ log_type: 'system', message: 'Booted' })).body.data.level).toBe('info');
    for (const bad of [{ log_type: 'gossip', message: 'x' }, { log_type: 'system' }, { log_type: 'system', message: 'x', level: 'loud' }]) {
      expect((await log(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const warnings = await onInstance(listLogsRoute, id, '/logs', { query: { level: 'warn' } });
    expect(warnings.body.data.map((l: any) => l.message)).toEqual(['Clicked']);
    const all = await onInstance(listLogsRoute, id, '/logs');
    expect(all.body.meta).toMatchObject({ total: 2, limit: 50, offset: 0 });

    const plan = (body: Record<string, unknown>) => onInstance(addPlanRoute, id, '/plans', { method: 'POST', body });
    const objective = await plan({ title: 'Grow signups', plan_type: 'objective', priority: 5, instructions: 'Be polite' });
    expect(objective.status).toBe(201);
    expect(objective.body.data).toMatchObject({
      title: 'Grow signups',
      plan_type: 'objective',
      status: 'pending',
      priority: 5,
      instructions: 'Be polite',
      steps: [],
    });
    await plan({ title: 'Fill the form', plan_type: 'task', status: 'in_progress' });
    for (const bad of [
      { title: 'x', plan_type: 'wish' },
      { plan_type: 'task' },
      { title: 'x', plan_type: 'task', status: 'dreaming' },
      { title: 'x', plan_type: 'task', priority: 1.5 },
    ]) {
      expect((await plan(bad)).status, JSON.stringify(bad)).toBe(400);
    }
    const plans = await onInstance(listPlansRoute, id, '/plans');
    expect(plans.body.data.map((p: any) => p.title)).toEqual(['Grow signups', 'Fill the form']);
    const tasks = await onInstance(listPlansRoute, id, '/plans', { query: { plan_type: 'task', status: 'in_progress' } });
    expect(tasks.body.meta.total).toBe(1);
    const none = await onInstance(screenshotRoute, id, '/screenshot');
    expect(none.status).toBe(404);
  });

  it('deletes the record with its logs and plans', async () => {
    const { id } = (await create({})).body.data;
    await onInstance(addLogRoute, id, '/logs', { method: 'POST', body: { log_type: 'system', message: 'x' } });
    const res = await onInstance(deleteRoute, id, '', { method: 'DELETE' });
    expect(res.body).toEqual({ success: true, data: { id, deleted: true } });
    expect((await get(id)).status).toBe(404);
    const db = await getDb();
    const left = (await db.execute(sql`select count(*)::int as n from instance_logs where instance_id = ${id}`)) as unknown as {
      rows: { n: number }[];
    };
    expect(left.rows[0].n).toBe(0);
  });

  it("another site's instance is 404 everywhere and stays unchanged", async () => {
    const theirs = (await create({ name: 'Theirs' }, other)).body.data;
    const id = theirs.id;
    const attempts = [
      get(id),
      put(id, { name: 'Mine' }),
      onInstance(deleteRoute, id, '', { method: 'DELETE' }),
      onInstance(listLogsRoute, id, '/logs'),
      onInstance(addLogRoute, id, '/logs', { method: 'POST', body: { log_type: 'system', message: 'x' } }),
      onInstance(listPlansRoute, id, '/plans'),
      onInstance(addPlanRoute, id, '/plans', { method: 'POST', body: { title: 'x', plan_type: 'task' } }),
      onInstance(screenshotRoute, id, '/screenshot'),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await get(id, other)).body.data).toEqual(theirs);
    const mineList = await call(listRoute, { path: '/api/instances', headers: key() });
    expect(mineList.body.data.some((i: any) => i.id === id)).toBe(false);
  });

  it('a read-only key reads but cannot write', async () => {
    const { id } = (await create({})).body.data;
    const read = presenters.bearer(mine.readKey);
    expect((await call(getRoute, { path: `/api/instances/${id}`, params: { id }, headers: read })).status).toBe(200);
    const res = await call(putRoute, { method: 'PUT', path: `/api/instances/${id}`, params: { id }, headers: read, body: { name: 'x' } });
    expect(res.status).toBe(403);
  });
});
