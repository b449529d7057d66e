import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { startReceiver, type Receiver } from '../../helpers/webhook-receiver';

/**
 * At-least-once delivery across a crash: the delivery worker process is killed with SIGKILL while
 * the receiver holds its request open; a new worker process claims the delivery once the dead
 * one's lease ran out and sends the same event again — same `webhook-id`.
 *
 * Postgres: the workers share the suite's database. PGlite (one process per data directory):
 * the workers use a data directory of their own, one after the other.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const children: ChildProcess[] = [];

function worker(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/webhook-delivery-worker.ts'], {
    env: {
      ...process.env,
      DATABASE_POOL_MAX: '3',
      OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      WEBHOOK_LEASE_SECONDS: '2',
      WEBHOOK_POLL_MS: '100',
      // The lease is at least the timeout + 5 s: the second worker takes the delivery over after that.
      WEBHOOK_TIMEOUT_MS: '5000',
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
      const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}`)), 240_000);
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
afterAll(async () => {
  for (const child of children) await kill(child);
  await receiver?.close();
});

describe('webhook delivery: a worker killed mid-delivery', () => {
  it('a new worker sends the same event again (same webhook-id) and it is delivered', async () => {
    receiver = await startReceiver();
    // The first request is held open: the worker is in the middle of the delivery when it dies.
    receiver.script('/hook', ['hang']);
    let env: Record<string, string>;
    let dataDir: string | undefined;
    if (onPostgres) {
      const db = await database();
      const [{ name }] = await db.sql.query<{ name: string }>('select current_database() as name');
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${name}`;
      env = { DATABASE_URL: url.toString() };
    } else {
      dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-hooks-'));
      env = { DATA_DIR: dataDir };
    }
    try {
      const first = worker({ ...env, SEED_URL: receiver.url('/hook') });
      const eventId = (await first.line(/^event (\S+)$/))[1];
      const [held] = await receiver.waitFor('/hook', 1, 90_000);
      expect(held.headers['webhook-id']).toBe(eventId);
      await kill(first.child);

      worker(env);
      const got = await receiver.waitFor('/hook', 2, 90_000);
      expect(got.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
      expect(JSON.parse(got[1].body)).toMatchObject({ id: eventId, type: 'lead.created' });
      // At least once: whatever else arrives (a slow attempt retried) is the same event.
      await new Promise((r) => setTimeout(r, 3000));
      expect(new Set(receiver.received('/hook').map((r) => r.headers['webhook-id']))).toEqual(new Set([eventId]));
    } finally {
      for (const child of children.splice(0)) await kill(child);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }
  }, 480_000);
});
