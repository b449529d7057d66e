import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { startLlmStandIn, type LlmStandIn } from '@/tests/helpers/llm-server';
import { startReceiver, type Receiver } from '@/tests/helpers/webhook-receiver';

/**
 * One crash story for every background job: a worker process is killed with SIGKILL while each
 * kind of job is in the middle of its work — a workflow run inside a step, a webhook delivery
 * whose receiver holds the request, an agent command inside its model call, a plain queue job —
 * and a new worker process takes over once the queue expired the dead worker's jobs:
 *
 * - the queue job runs again, once (started twice, done once);
 * - the run resumes from its checkpoints: the step completed before the crash is not run again,
 *   the one cut short is, the run completes;
 * - the delivery is sent again with the same `webhook-id` (at least once; receivers drop the
 *   duplicate) and succeeds;
 * - the command is not run again — its tool calls may already have acted — but recorded as
 *   failed/INTERRUPTED, its run FAILED: the model was asked once.
 *
 * Postgres: both workers share the suite's database. PGlite (one process per data directory): the
 * workers use a data directory of their own, one after the other.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const children: ChildProcess[] = [];

function worker(env: Record<string, string>) {
  // Node itself with tsx's loader, so the pid killed is the worker's (the tsx CLI would add a parent process).
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/background-fault-worker.ts'], {
    env: {
      ...process.env,
      DATABASE_POOL_MAX: '4',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      // A dead worker's run jobs expire after 3 s; its delivery jobs after the timeout + 5 s.
      WORKFLOW_LEASE_SECONDS: '3',
      WORKFLOW_POLL_SECONDS: '0.5',
      WORKFLOW_RETRY_DELAY_SECONDS: '1',
      WORKFLOW_RETRY_LIMIT: '3',
      WEBHOOK_TIMEOUT_MS: '5000',
      WEBHOOK_POLL_MS: '200',
      LLM_API_KEY: 'standin-key',
      LLM_MODEL: 'stand-in-model',
      LLM_MAX_RETRIES: '0',
      LOG_LEVEL: 'silent',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  const waiters: (() => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (l) => {
    lines.push(l);
    for (const w of waiters.splice(0)) w();
  });
  const line = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}`)), 150_000);
      const check = () => {
        const hit = lines.map((l) => l.match(pattern)).find(Boolean);
        if (hit) {
          clearTimeout(timer);
          resolve(hit);
        } else waiters.push(check);
      };
      check();
    });
  return { child, line };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

let receiver: Receiver | undefined;
let model: LlmStandIn | undefined;
afterAll(async () => {
  for (const child of children) await kill(child);
  await receiver?.close();
  await model?.close();
});

describe('background jobs: a worker killed in the middle of every kind of job', () => {
  it('a new worker resumes each once: nothing lost, nothing done twice that must not be', async () => {
    receiver = await startReceiver();
    model = await startLlmStandIn();
    // The first delivery and the first model call are held open: the worker is inside both when it dies.
    receiver.script('/hook', ['hang']);
    model.queue({ delayMs: 120_000, then: { text: 'too late' } });
    let env: Record<string, string> = { LLM_BASE_URL: model.url };
    let dataDir: string | undefined;
    if (onPostgres) {
      const db = await database();
      const [{ name }] = await db.sql.query<{ name: string }>('select current_database() as name');
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env = { ...env, DATABASE_URL: url.toString() };
    } else {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-fault-'));
      env = { ...env, DATA_DIR: dataDir };
    }
    try {
      const first = worker({ ...env, FAULT_SEED: receiver.url('/hook') });
      const seed = JSON.parse((await first.line(/^seeded (.+)$/))[1]) as { eventId: string };
      await Promise.all([first.line(/^job-started$/), first.line(/^slow-started$/), receiver.waitFor('/hook', 1, 120_000)]);
      while (model.requests.length === 0) await new Promise((r) => setTimeout(r, 50));
      await kill(first.child);

      const second = worker({ ...env, FAULT_WATCH: JSON.stringify(seed) });
      const summary = JSON.parse((await second.line(/^summary (.+)$/))[1]);
      expect(summary.effects).toEqual({ 'job-started': 2, 'job-done': 1, first: 1, 'slow-started': 2, last: 1 });
      expect(summary.run).toEqual({ status: 'COMPLETED', result: { first: 1, slow: 'slow-done', last: 1 } });
      expect(summary.delivery).toEqual({ status: 'succeeded', attempts: 1 });
      expect(summary.command).toMatchObject({ status: 'failed', error: { code: 'INTERRUPTED' } });
      expect(summary.commandRun).toEqual({ status: 'FAILED' });
      const got = receiver.received('/hook');
      expect(got.map((r) => r.headers['webhook-id'])).toEqual([seed.eventId, seed.eventId]);
      expect(model.requests).toHaveLength(1);
    } finally {
      for (const child of children.splice(0)) await kill(child);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
