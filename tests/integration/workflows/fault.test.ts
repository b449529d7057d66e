import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { EmbeddedEngine } from '@/lib/workflows/engines/embedded';
import { createTenant, type Tenant } from '../../helpers/harness';

/**
 * Crash recovery of the embedded engine: a worker process is killed with SIGKILL in the middle of
 * a run; a new worker takes the run over, completes it, and the step that had completed before
 * the crash is not run again. Needs a database two processes can share, so it runs on Postgres
 * (PGlite is one process per data directory).
 */
const onPostgres = process.env.TEST_DB === 'postgres';

describe.skipIf(!onPostgres)('embedded engine: crash of a worker mid-run', () => {
  let url: string;
  let tenant: Tenant;
  let engine: EmbeddedEngine;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    const db = await database();
    await db.sql.exec('create table workflow_fault_effects (id serial primary key, label text not null, at timestamptz not null default now())');
    const [{ name }] = await db.sql.query<{ name: string }>('select current_database() as name');
    const admin = new URL(process.env.TEST_DATABASE_URL!);
    admin.pathname = `/${name}`;
    url = admin.toString();
    tenant = await createTenant();
    // This process only starts and reads runs; the workers are the child processes.
    engine = new EmbeddedEngine({ definitions: {}, leaseSeconds: 3, retryLimit: 3, retryDelaySeconds: 1 });
  });

  afterAll(async () => {
    for (const child of children) {
      if (child.exitCode !== null || child.signalCode !== null) continue;
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    await engine?.close();
  });

  function worker(): ChildProcess {
    // Node itself with tsx's loader, so the pid killed is the worker's (the tsx CLI would add a parent process).
    const child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/workflow-fault-worker.ts'], {
      env: {
        ...process.env,
        DATABASE_URL: url,
        DATABASE_POOL_MAX: '3',
        WORKFLOW_LEASE_SECONDS: '3',
        WORKFLOW_POLL_SECONDS: '0.5',
        WORKFLOW_RETRY_DELAY_SECONDS: '1',
        WORKFLOW_RETRY_LIMIT: '3',
        LOG_LEVEL: 'silent',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(child);
    return child;
  }

  async function effects(): Promise<Record<string, number>> {
    const db = await database();
    const rows = await db.sql.query<{ label: string; n: number }>('select label, count(*)::int as n from workflow_fault_effects group by label');
    return Object.fromEntries(rows.map((r) => [r.label, r.n]));
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('resumes the run in a new worker without redoing completed steps', async () => {
    const { workflowId } = await engine.start({
      siteId: tenant.siteId,
      type: 'faultProbeWorkflow',
      workflowId: `fault-probe-${tenant.siteId}-${Date.now()}-00000000`,
      input: {},
    });
    const first = worker();
    await until('the slow step to start', async () => ((await effects())['slow-started'] === 1 ? true : undefined), 30_000);
    expect(await effects()).toEqual({ first: 1, 'slow-started': 1 });
    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    expect((await engine.get(tenant.siteId, workflowId))!.status).toBe('RUNNING');

    worker();
    const record = await until(
      'the run to end',
      async () => {
        const r = await engine.get(tenant.siteId, workflowId);
        return r && r.status !== 'RUNNING' ? r : undefined;
      },
      45_000,
    );
    expect(record.status, JSON.stringify(record.failure)).toBe('COMPLETED');
    // The first step completed before the crash: answered from its checkpoint, not run again.
    // The slow step was cut short, so it ran again; the last step ran once.
    expect(await effects()).toEqual({ first: 1, 'slow-started': 2, last: 1 });
    expect(record.result).toEqual({ first: 1, slow: 'slow-done', last: 1 });
  }, 90_000);
});
