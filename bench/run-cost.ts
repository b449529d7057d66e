/**
 * What one executed workflow run costs the worker and Postgres: `DATABASE_URL=<admin url> npx tsx bench/run-cost.ts`
 * (after `npm run build`; `BENCH_COMPARE_DIR=<another built checkout>` measures that build too, in the same run).
 *
 * For each build, on a database of its own (dropped after): the server entry with WORKERS=off
 * starts BENCH_RUNS (default 1,000) `dailyStandUp` runs (one activity, `siteFigures`) and stops; then
 * the worker entry (`.next/worker.cjs`) works them all off. Read from /proc and the database, not
 * from the clock, so a busy machine does not distort them:
 *
 * - worker CPU: utime + stime of the worker process;
 * - database CPU: utime + stime of the Postgres backends connected to the build's database
 *   (sampled every 100 ms, so a backend that closes meanwhile still counts);
 * - commits: `pg_stat_database.xact_commit` of the build's database.
 *
 * The same worker is then started again on the same database, with nothing left to do, for as long
 * as the work took: its cost (start-up, idle polling, maintenance) is subtracted, so what is
 * printed is per run. BENCH_PORT (default 3230); BENCH_CPU_PROFILE=<dir> makes the workers write V8 CPU profiles there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { admin } from './admin';
import { backendCpu, cpuTicks, TICK_US } from './proc';
import { seed, stop, unlimitedPlan, waitUp } from './server-process';
import { startOptions } from './start-options';

const ADMIN_URL = process.env.DATABASE_URL;
const RUNS = Number(process.env.BENCH_RUNS ?? 1000);
const PORT = Number(process.env.BENCH_PORT ?? 3230);
const COMPARE_DIR = process.env.BENCH_COMPARE_DIR;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const urlOf = (database: string) => {
  const u = new URL(ADMIN_URL!);
  u.pathname = `/${database}`;
  return u.toString();
};

const withAdmin = <T>(fn: (c: Client) => Promise<T>) => admin(ADMIN_URL!, fn);

const baseEnv = { RATE_LIMIT_BACKEND: 'none', LOG_LEVEL: 'error', NODE_ENV: 'production' as const, NEXT_TELEMETRY_DISABLED: '1' };

function startServer(cwd: string, port: number, database: string): ChildProcess {
  return spawn(process.execPath, [...startOptions(cwd), path.join(cwd, 'server.mjs'), '-p', String(port), '-H', '127.0.0.1'], {
    cwd,
    env: { ...process.env, ...baseEnv, WORKERS: 'off', DATABASE_URL: urlOf(database) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

// BENCH_CPU_PROFILE=<dir>: each worker writes a V8 CPU profile there when it stops.
const PROFILE = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];

function startWorker(cwd: string, database: string): ChildProcess {
  return spawn(process.execPath, [...PROFILE, path.join(cwd, '.next', 'worker.cjs')], {
    cwd,
    env: { ...process.env, ...baseEnv, DATABASE_URL: urlOf(database) },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

interface Cost {
  worker: number;
  database: number;
  commits: number;
  ms: number;
}

/** CPU ticks of the worker and of its database's backends, and the database's commits, while `until` has not resolved. */
async function measure(worker: ChildProcess, database: string, until: (c: Client) => Promise<boolean>, minMs = 0): Promise<Cost> {
  return withAdmin(async (c) => {
    const commits = async () => {
      await c.query('select pg_stat_clear_snapshot()');
      return Number((await c.query('select xact_commit from pg_stat_database where datname = $1', [database])).rows[0].xact_commit);
    };
    const backends = backendCpu(c, database);
    const started = Date.now();
    const firstCommits = await commits();
    const firstWorker = cpuTicks(worker.pid!) ?? 0;
    await backends.sample();
    while (!(await until(c)) || Date.now() - started < minMs) {
      await backends.sample();
      await sleep(100);
    }
    await backends.sample();
    const ms = Date.now() - started;
    const workerTicks = (cpuTicks(worker.pid!) ?? 0) - firstWorker;
    // Statistics reach pg_stat_database when a backend's transaction ends, at most about a second later.
    await sleep(1500);
    return {
      worker: workerTicks * TICK_US,
      database: backends.ticks() * TICK_US,
      commits: (await commits()) - firstCommits,
      ms,
    };
  });
}

async function costOf(label: string, cwd: string, port: number): Promise<{ worker: number; database: number; commits: number }> {
  const database = `sgp_runcost_${randomBytes(4).toString('hex')}_${label}`;
  await withAdmin((c) => c.query(`create database ${database}`));
  const children: ChildProcess[] = [];
  try {
    const server = startServer(cwd, port, database);
    children.push(server);
    const base = `http://127.0.0.1:${port}`;
    await waitUp(base, server);
    const s = await seed(base);
    await unlimitedPlan(s.siteId, { DATABASE_URL: urlOf(database) });
    const started = await autocannon({
      url: `${base}/api/workflow/dailyStandUp`,
      connections: 20,
      amount: RUNS,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': s.apiKey },
      body: JSON.stringify({ site_id: s.siteId }),
    });
    if (started.non2xx || started.errors) throw new Error(`${label}: ${started.non2xx + started.errors} starts failed`);
    await stop(server);

    const running = async (c: Client) =>
      Number((await c.query(`select count(*) from workflow_runs where status = 'RUNNING'`)).rows[0].count as string);
    const onDb = new Client({ connectionString: urlOf(database) });
    await onDb.connect();
    try {
      const worker = startWorker(cwd, database);
      children.push(worker);
      const work = await measure(worker, database, async () => (await running(onDb)) === 0);
      const done = Number((await onDb.query(`select count(*) from workflow_runs where status = 'COMPLETED'`)).rows[0].count as string);
      if (done !== RUNS) throw new Error(`${label}: ${done} of ${RUNS} runs completed`);
      await stop(worker);
      // The same worker with nothing to do, as long: start-up, polling and maintenance.
      const idle = startWorker(cwd, database);
      children.push(idle);
      const rest = await measure(idle, database, async () => true, work.ms);
      await stop(idle);
      const per = (k: keyof Cost) => (work[k] - rest[k]) / RUNS;
      console.log(
        `${label}: ${RUNS} runs in ${(work.ms / 1000).toFixed(1)} s; worker ${work.worker / 1000} ms CPU (idle ${rest.worker / 1000}), database ${work.database / 1000} ms (idle ${rest.database / 1000}), ${work.commits} commits (idle ${rest.commits})`,
      );
      return { worker: per('worker'), database: per('database'), commits: per('commits') };
    } finally {
      await onDb.end();
    }
  } finally {
    await Promise.all(children.map(stop));
    await withAdmin((c) => c.query(`drop database if exists ${database} with (force)`)).catch(() => undefined);
  }
}

async function main() {
  if (!ADMIN_URL) throw new Error('DATABASE_URL=<admin url of a Postgres server> is required');
  const builds = [{ label: 'this', cwd: process.cwd() }, ...(COMPARE_DIR ? [{ label: 'compare', cwd: path.resolve(COMPARE_DIR) }] : [])];
  const results = [];
  for (const [i, b] of builds.entries()) results.push({ label: b.label, ...(await costOf(b.label, b.cwd, PORT + i)) });
  console.log(`\nper dailyStandUp run (${RUNS} runs; the same worker idle as long subtracted)`);
  console.log('build'.padEnd(10) + 'worker µs'.padStart(12) + 'database µs'.padStart(14) + 'commits'.padStart(10));
  for (const r of results)
    console.log(r.label.padEnd(10) + r.worker.toFixed(0).padStart(12) + r.database.toFixed(0).padStart(14) + r.commits.toFixed(2).padStart(10));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
