import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database, openMigratedDatabase, type Database } from '@/lib/db/client';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { createTenant } from '../../helpers/harness';

/**
 * Crash recovery of the embedded engine: a worker process is killed with SIGKILL in the middle of
 * a run; a new worker process takes the run over and completes it, and the step that had
 * completed before the crash is not run again (side effects are counted in a table).
 *
 * Postgres: the test process starts the run and watches the shared database while the workers
 * come and go. PGlite (one process per data directory): the workers use a data directory of their
 * own in turn — the first starts the run, the second exits when it ended — and the test reads it
 * afterwards.
 */
const onPostgres = process.env.TEST_DB === 'postgres';
const EFFECTS_TABLE = 'create table workflow_fault_effects (id serial primary key, label text not null, at timestamptz not null default now())';
const EXPECTED_EFFECTS = { first: 1, 'slow-started': 2, last: 1 };

interface Worker {
  child: ChildProcess;
  /** Resolves with the first stdout line matching. */
  line(pattern: RegExp): Promise<RegExpMatchArray>;
}

const children: ChildProcess[] = [];

function worker(env: Record<string, string>): Worker {
  // Node itself with tsx's loader, so the pid killed is the worker's (the tsx CLI would add a parent process).
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/workflow-fault-worker.ts'], {
    env: {
      ...process.env,
      DATABASE_POOL_MAX: '3',
      WORKFLOW_LEASE_SECONDS: '3',
      WORKFLOW_POLL_SECONDS: '0.5',
      WORKFLOW_RETRY_DELAY_SECONDS: '1',
      WORKFLOW_RETRY_LIMIT: '3',
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
  return {
    child,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`worker never printed ${pattern}`)), 60_000);
        const check = () => {
          const hit = lines.map((l) => l.match(pattern)).find(Boolean);
          if (hit) {
            clearTimeout(timer);
            resolve(hit);
          } else waiters.push(check);
        };
        check();
      }),
  };
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

async function effectsIn(db: Database): Promise<Record<string, number>> {
  const rows = await db.sql.query<{ label: string; n: number }>('select label, count(*)::int as n from workflow_fault_effects group by label');
  return Object.fromEntries(rows.map((r) => [r.label, r.n]));
}

afterAll(async () => {
  for (const child of children) await kill(child);
});

describe('embedded engine: a worker killed mid-run', () => {
  let siteId: string;
  beforeAll(async () => {
    siteId = (await createTenant()).siteId;
  });

  it.runIf(onPostgres)('on Postgres: a new worker resumes the run without redoing completed steps', async () => {
    const db = await database();
    await db.sql.exec(EFFECTS_TABLE);
    const [{ name }] = await db.sql.query<{ name: string }>('select current_database() as name');
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    // This process only starts and reads runs; the workers are the child processes.
    const engine = new EmbeddedEngine({ definitions: {}, leaseSeconds: 3, retryLimit: 3, retryDelaySeconds: 1 });
    try {
      const { workflowId } = await engine.start({ siteId, type: 'faultProbeWorkflow', workflowId: `fault-probe-${siteId}-${Date.now()}-00000000`, input: {} });
      const first = worker({ DATABASE_URL: url.toString() });
      await first.line(/^slow-started$/);
      expect(await effectsIn(db)).toEqual({ first: 1, 'slow-started': 1 });
      await kill(first.child);
      expect((await engine.get(siteId, workflowId))!.status).toBe('RUNNING');

      const second = worker({ DATABASE_URL: url.toString(), FAULT_SITE: siteId, FAULT_EXIT_WHEN_DONE: workflowId });
      expect((await second.line(/^ended (\w+)$/))[1]).toBe('COMPLETED');
      const record = (await engine.get(siteId, workflowId))!;
      // The first step completed before the crash: answered from its checkpoint, not run again.
      // The slow step was cut short, so it ran again; the last step ran once.
      expect(await effectsIn(db)).toEqual(EXPECTED_EFFECTS);
      expect(record).toMatchObject({ status: 'COMPLETED', result: { first: 1, slow: 'slow-done', last: 1 } });
    } finally {
      await engine.close();
    }
  }, 90_000);

  it.runIf(!onPostgres)('on PGlite: a new worker on the same data directory resumes the run without redoing completed steps', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-fault-'));
    try {
      const seed = await openMigratedDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      await seed.sql.exec(EFFECTS_TABLE);
      const [user] = await seed.sql.query<{ id: string }>(`insert into users (email, password_hash) values ('fault@acme.io', 'x') returning id`);
      const [site] = await seed.sql.query<{ id: string }>(`insert into sites (owner_id, name) values ($1, 'Fault') returning id`, [user.id]);
      await seed.close();

      const first = worker({ DATA_DIR: dataDir, FAULT_START_SITE: site.id });
      const workflowId = (await first.line(/^run (\S+)$/))[1];
      await first.line(/^slow-started$/);
      await kill(first.child);

      const second = worker({ DATA_DIR: dataDir, FAULT_SITE: site.id, FAULT_EXIT_WHEN_DONE: workflowId });
      expect((await second.line(/^ended (\w+)$/))[1]).toBe('COMPLETED');
      await new Promise((resolve) => (second.child.exitCode === null ? second.child.once('exit', resolve) : resolve(undefined)));

      const after = await openMigratedDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
      try {
        expect(await effectsIn(after)).toEqual(EXPECTED_EFFECTS);
        const [run] = await after.sql.query<{ status: string; result: unknown }>('select status, result from workflow_runs where workflow_id = $1', [workflowId]);
        expect(run).toEqual({ status: 'COMPLETED', result: { first: 1, slow: 'slow-done', last: 1 } });
      } finally {
        await after.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
