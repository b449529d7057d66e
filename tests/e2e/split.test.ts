import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { startLlmStandIn, type LlmStandIn } from '../helpers/llm-server';
import { findTemporalCli, missingCliMessage, startTemporalDevServer } from '../helpers/temporal-server';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver';
import { ARTIFACTS, ROOT, startServer, type RunningServer } from './server';

/**
 * The serverless split, as deployed on Vercel: the web process (`npm start` with WORKERS=off)
 * runs no background work at all, and `npm run worker` — a process of its own on the shared
 * Postgres — runs every job. The whole product works across the two: a workflow run, an agent
 * command on the model, a webhook delivery signed and sent, key usage recorded. Then the same on
 * Temporal (the worker also runs the Temporal worker).
 *
 * Needs Postgres (TEST_DATABASE_URL) and, for the second case, the `temporal` CLI; without them
 * the cases are skipped, except under CI=true, where they are required.
 */
const base = inject('e2eBaseUrl');
const ADMIN_URL = process.env.TEST_DATABASE_URL;
const CLI = findTemporalCli();
const PORT = Number(process.env.E2E_SPLIT_PORT ?? Number(process.env.E2E_PORT ?? 3600) + 50);
if (process.env.CI === 'true' && base && !ADMIN_URL) throw new Error('[e2e] the split-process suite needs TEST_DATABASE_URL under CI=true');
if (process.env.CI === 'true' && base && !CLI) throw new Error(`[e2e] the split-process suite needs Temporal under CI=true: ${missingCliMessage()}`);

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
});

async function freshDatabase(): Promise<string> {
  const name = `sgp_split_${randomBytes(5).toString('hex')}`;
  const admin = async (sql: string) => {
    const c = new Client({ connectionString: ADMIN_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`create database ${name}`);
  cleanups.push(() => admin(`drop database if exists ${name} with (force)`));
  const url = new URL(ADMIN_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

function startWorker(env: Record<string, string>, logName: string): ChildProcess {
  const log = createWriteStream(path.join(ARTIFACTS, `${logName}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  return child;
}

async function stopWorker(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

/** Polls `fn` until it answers something (each look is a request to the app; no timing is asserted). */
async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Process ids of the children of `pid` (from /proc). */
function childrenOf(pid: number): string[] {
  const out = spawnSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' });
  return out.stdout.split('\n').filter(Boolean);
}

async function product(env: Record<string, string>, label: string, model: LlmStandIn, receiver: Receiver, port: number) {
  const server: RunningServer = await startServer(port, { ...env, WORKERS: 'off' }, `split-${label}-web`);
  cleanups.push(() => server.stop());
  // A 429 (the Basic plan allows 60 requests a minute) waits its Retry-After and tries again.
  const api = async (p: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) => {
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${server.url}${p}`, {
        method: init.method ?? 'GET',
        headers: { 'content-type': 'application/json', ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      if (res.status === 429 && attempt < 5) {
        await res.arrayBuffer();
        await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
        continue;
      }
      return { status: res.status, body: await res.json() };
    }
  };
  const email = `split-${label}-${randomBytes(4).toString('hex')}@example.com`;
  await api('/api/auth/signup', { method: 'POST', body: { email, password: 'a long enough password' } });
  const token = (await api('/api/auth/token', { method: 'POST', body: { email, password: 'a long enough password' } })).body.data.token;
  const session = { authorization: `Bearer ${token}` };
  const site = (await api('/api/visitors/sites', { method: 'POST', headers: session, body: { name: 'Split', domain: 'split.example.com' } })).body
    .data;
  const created = (await api('/api/keys', { method: 'POST', headers: session, body: { name: 'split', scopes: ['read', 'write'], site_id: site.id } }))
    .body.data;
  const key = { 'x-api-key': created.apiKey };

  // Work that happens later, asked for while no worker runs: it waits in the queues.
  const hook = await api('/api/webhooks', {
    method: 'POST',
    headers: key,
    body: { site_id: site.id, url: receiver.url(`/${label}`), events: ['lead.created', 'workflow.completed'] },
  });
  expect(hook.status).toBe(201);
  const lead = await api('/api/agents/tools/leads/create', {
    method: 'POST',
    headers: key,
    body: { site_id: site.id, name: 'Ada', email: `ada-${label}@example.com` },
  });
  expect(lead.status).toBe(201);
  const run = await api('/api/workflow/dailyStandUp', { method: 'POST', headers: key, body: { site_id: site.id } });
  expect(run.status).toBe(202);
  const command = await api(`/sites/${site.id}/commands`, {
    method: 'POST',
    headers: key,
    body: { task: 'Audit', description: 'SEO pass', parameters: {} },
  });
  expect(command.status, JSON.stringify(command.body)).toBe(201);
  const commandId = command.body.data.command_id;

  // The web process runs none of it: no worker beside it, nothing delivered, the run still running.
  expect(childrenOf(server.pid).join('\n')).not.toContain('worker.ts');
  expect(receiver.received(`/${label}`)).toEqual([]);
  const standUp = async () => (await api(`/api/logs/workflows?site_id=${site.id}&type=dailyStandUpWorkflow`, { headers: key })).body.workflows?.[0];
  expect((await standUp()).status).toBe('RUNNING');

  const worker = startWorker(env, `split-${label}-worker`);
  cleanups.push(() => stopWorker(worker));
  const ended = await until('the run to end', async () => {
    const record = await standUp();
    return record && record.status !== 'RUNNING' ? record : undefined;
  });
  expect(ended.status).toBe('COMPLETED');
  const done = await until('the command to finish', async () => {
    const res = await api(`/sites/${site.id}/commands/${commandId}`, { headers: key });
    return ['completed', 'failed'].includes(res.body.data.status) ? res.body.data : undefined;
  });
  expect(done).toMatchObject({ status: 'completed', reply: expect.any(String) });
  expect(model.requests.length).toBeGreaterThan(0);
  // The lead, the stand-up run and the command's run: three events, each delivered signed.
  const got = await receiver.waitFor(`/${label}`, 3, 120_000);
  expect(got.map((r) => JSON.parse(r.body).type).sort()).toEqual(['lead.created', 'workflow.completed', 'workflow.completed']);
  const usage = await api(`/api/keys/${created.id}/usage?site_id=${site.id}`, { headers: session });
  expect(usage.body.data.total_requests).toBeGreaterThan(0);
  expect(await stopWorker(worker)).toBe(0);
  await server.stop();
}

describe.skipIf(!base || !ADMIN_URL)('split processes: a web process without background work and `npm run worker`', () => {
  const shared = async () => {
    const model = await startLlmStandIn();
    const receiver = await startReceiver();
    cleanups.push(
      () => model.close(),
      () => receiver.close(),
    );
    return {
      model,
      receiver,
      env: {
        // The two processes share the server secret (webhook signing secrets are sealed with it), as in production.
        AUTH_SECRET: randomBytes(32).toString('hex'),
        LLM_BASE_URL: model.url,
        LLM_API_KEY: 'standin-key',
        LLM_MODEL: 'stand-in-model',
        OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
        WORKFLOW_POLL_SECONDS: '0.5',
        WEBHOOK_POLL_MS: '200',
      },
    };
  };

  it('on Postgres', async () => {
    const { model, receiver, env } = await shared();
    await product({ ...env, DATABASE_URL: await freshDatabase() }, 'postgres', model, receiver, PORT);
  }, 240_000);

  it.skipIf(!CLI)(
    'on Temporal',
    async () => {
      const { model, receiver, env } = await shared();
      const temporal = await startTemporalDevServer(CLI!);
      cleanups.push(() => temporal.stop());
      await product(
        { ...env, DATABASE_URL: await freshDatabase(), TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace },
        'temporal',
        model,
        receiver,
        PORT + 1,
      );
    },
    300_000,
  );
});
