/**
 * CPU per request of the web process (and of its worker child, which holds the embedded database),
 * read from /proc (utime + stime) before and after a fixed number of requests: a figure a loaded
 * machine does not distort the way it distorts requests per second.
 *
 *   npm run build && npx tsx bench/cpu-per-request.ts
 *   BENCH_COMPARE_DIR=<another built checkout> npx tsx bench/cpu-per-request.ts   # A/B in one run
 *
 * Starts the server entry as `npm start` does (limits off) on a seeded copy of one data directory —
 * and, with BENCH_COMPARE_DIR, the same entry of that checkout on another copy — then sends
 * BENCH_REQUESTS (default 10,000) requests of each scenario (BENCH_ONLY, default track, session
 * create and session returning with X-SA-API-KEY; names as in bench/scenarios.ts) over
 * BENCH_CONNECTIONS (default 50) connections to each server in turn, BENCH_ROUNDS (default 3) times,
 * and prints the median µs of CPU per request of each process. BENCH_PORT (default 3210) and the next
 * port are used; DATABASE_URL runs both on that Postgres database, and the `database` column is then
 * the CPU of that database's backends (this machine's Postgres, read from /proc; the servers take
 * turns, so each round's figure is one server's). BENCH_CPU_PROFILE=<dir> makes the
 * server entries write V8 CPU profiles there (`node --cpu-prof`).
 * BENCH_COMPARE_EMBEDDED=1 (with DATABASE_URL) runs the compare server — this checkout's entry, or
 * BENCH_COMPARE_DIR's — on the embedded database instead (label `embedded`, seeded on its own):
 * the same routes on both databases, taking turns in one run.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { backendCpu, cpuTicks, TICK_US } from './proc';
import { scenarios, type Seed } from './scenarios';
import { seed, stop, unlimitedPlan, waitUp, withEnv } from './server-process';
import { startOptions } from './start-options';

const PORT = Number(process.env.BENCH_PORT ?? 3210);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ONLY = (process.env.BENCH_ONLY ?? 'track.key,session.create.key,session.returning.key').split(',').filter(Boolean);
const COMPARE_DIR = process.env.BENCH_COMPARE_DIR;
const COMPARE_EMBEDDED = process.env.BENCH_COMPARE_EMBEDDED === '1' && !!process.env.DATABASE_URL;
// BENCH_CPU_PROFILE=<dir>: each server entry writes a V8 CPU profile there when it stops.
const PROFILE = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];

/** The environment that puts a server or tool on the embedded database under `dataDir` (DATABASE_URL removed). */
const embeddedEnv = (dataDir: string) => ({ DATA_DIR: dataDir, DATABASE_URL: undefined });

function startServer(cwd: string, port: number, dataDir: string, embedded = false): ChildProcess {
  const env = withEnv({
    ...(embedded ? embeddedEnv(dataDir) : { DATA_DIR: dataDir }),
    RATE_LIMIT_BACKEND: 'none',
    LOG_LEVEL: 'error',
    NODE_ENV: 'production',
    NEXT_TELEMETRY_DISABLED: '1',
  });
  return spawn(process.execPath, [...startOptions(cwd), ...PROFILE, path.join(cwd, 'server.mjs'), '-p', String(port), '-H', '127.0.0.1'], {
    cwd,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** A server on a fresh data directory seeded with a user, site and key (the site on an unlimited plan), stopped again. */
async function seeded(dataDir: string, embedded: boolean): Promise<Seed> {
  const base = `http://127.0.0.1:${PORT}`;
  const seeding = startServer(process.cwd(), PORT, dataDir, embedded);
  let s: Seed;
  try {
    await waitUp(base, seeding);
    s = await seed(base);
  } finally {
    await stop(seeding);
  }
  await unlimitedPlan(s.siteId, embedded ? embeddedEnv(dataDir) : { DATA_DIR: dataDir });
  return s;
}

/** utime + stime of a process, in clock ticks (0 once it is gone). */
const ticks = (pid: number) => cpuTicks(pid) ?? 0;

const childrenOf = (pid: number) => readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);

/** CPU ticks the Postgres backends of DATABASE_URL's database spend while `work` runs (0 without one), polled every 100 ms. */
async function databaseTicksDuring(admin: pg.Client | undefined, work: Promise<unknown>): Promise<number> {
  if (!admin) return (await work, 0);
  const backends = backendCpu(admin, admin.database!);
  await backends.sample();
  let done = false;
  const finished = work.finally(() => (done = true));
  while (!done) await Promise.race([finished, new Promise((r) => setTimeout(r, 100))]).then(() => backends.sample());
  await finished;
  await backends.sample();
  return backends.ticks();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-cpu-'));
  const servers: ChildProcess[] = [];
  const admin = process.env.DATABASE_URL ? new pg.Client({ connectionString: process.env.DATABASE_URL }) : undefined;
  await admin?.connect();
  try {
    const s = await seeded(path.join(dataDir, 'seed'), false);
    const sEmbedded = COMPARE_EMBEDDED ? await seeded(path.join(dataDir, 'seed-embedded'), true) : undefined;

    const compareCwd = path.resolve(COMPARE_DIR ?? process.cwd());
    const dirs = [
      { label: 'this', cwd: process.cwd(), embedded: false },
      ...(COMPARE_EMBEDDED
        ? [{ label: 'embedded', cwd: compareCwd, embedded: true }]
        : COMPARE_DIR
          ? [{ label: 'compare', cwd: compareCwd, embedded: false }]
          : []),
    ];
    const targets = dirs.map(({ label, cwd, embedded }, i) => {
      const dir = path.join(dataDir, label);
      cpSync(path.join(dataDir, embedded ? 'seed-embedded' : 'seed'), dir, { recursive: true });
      const base = `http://127.0.0.1:${PORT + i}`;
      const child = startServer(cwd, PORT + i, dir, embedded);
      servers.push(child);
      return { label, base, child, scenarios: scenarios({ ...(embedded ? sEmbedded! : s), base }).filter((sc) => ONLY.includes(sc.name)) };
    });
    for (const t of targets) await waitUp(t.base, t.child);
    for (const t of targets) for (const sc of t.scenarios) await sc.setup?.();

    const results = new Map<string, { web: number[]; worker: number[]; database: number[]; non2xx: number }>();
    for (let round = 0; round <= ROUNDS; round++) {
      for (const name of ONLY) {
        for (const t of targets) {
          const sc = t.scenarios.find((x) => x.name === name)!;
          const pid = t.child.pid!;
          const workers = childrenOf(pid);
          const before = { web: ticks(pid), worker: workers.reduce((sum, w) => sum + ticks(w), 0) };
          const run = Promise.resolve(autocannon({ url: t.base + sc.path, connections: CONNECTIONS, amount: REQUESTS, ...sc.request }));
          const databaseSpent = await databaseTicksDuring(admin, run);
          const result = await run;
          // Round 0 warms each server up (JIT, pools, caches) and is not counted.
          if (round === 0) continue;
          const web = ((ticks(pid) - before.web) * TICK_US) / REQUESTS;
          const worker = ((workers.reduce((sum, w) => sum + ticks(w), 0) - before.worker) * TICK_US) / REQUESTS;
          const database = (databaseSpent * TICK_US) / REQUESTS;
          const row = results.get(`${name}\t${t.label}`) ?? { web: [], worker: [], database: [], non2xx: 0 };
          row.web.push(web);
          row.worker.push(worker);
          row.database.push(database);
          row.non2xx += result.non2xx + result.errors;
          results.set(`${name}\t${t.label}`, row);
          console.log(
            `round ${round} ${name} ${t.label}: web ${web.toFixed(0)} µs/request, worker ${worker.toFixed(0)} µs/request` +
              (admin ? `, database ${database.toFixed(0)} µs/request` : ''),
          );
        }
      }
    }
    console.log(`\n${REQUESTS} requests × ${ROUNDS} rounds, ${CONNECTIONS} connections; median µs of CPU per request`);
    console.log(
      'scenario'.padEnd(24) +
        'server'.padStart(9) +
        'web'.padStart(8) +
        'worker'.padStart(8) +
        (admin ? 'database'.padStart(10) : '') +
        'non2xx'.padStart(8),
    );
    for (const [id, row] of results) {
      const [name, label] = id.split('\t');
      console.log(
        name.padEnd(24) +
          label.padStart(9) +
          median(row.web).toFixed(0).padStart(8) +
          median(row.worker).toFixed(0).padStart(8) +
          (admin ? median(row.database).toFixed(0).padStart(10) : '') +
          String(row.non2xx).padStart(8),
      );
    }
  } finally {
    await Promise.all(servers.map(stop));
    await admin?.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
