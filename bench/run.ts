/**
 * `npm run bench`: builds nothing; starts `next start` on the built app (run `npm run build`
 * first) with a fresh data directory, seeds a user, site and key (the site on an Enterprise plan
 * with limits far above the load, so every request passes the limiter and does its full work),
 * then runs each scenario with autocannon and prints requests/s, p99 and the ratio to the no-op
 * route of the same run.
 *
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=50 DATABASE_URL=postgres://... npm run bench
 *
 * BENCH_RATE_LIMIT_BACKENDS=none,memory,upstash starts one server per limiter backend (ports
 * BENCH_PORT, +1, +2; each on its own copy of the seeded data) and runs every scenario on each in
 * BENCH_ROUNDS interleaved rounds (default 3, BENCH_DURATION seconds in all per scenario and
 * backend), so a busy machine slows all backends alike. It adds each scenario's ratio to its
 * `none` run: the limiter's cost per request. `upstash` goes through the test REST bridge to
 * Redis at REDIS_URL (default redis://127.0.0.1:6379), with a random key prefix removed afterwards.
 *
 * Servers start as `npm start` starts them (`node <its options> server.mjs`: the server entry that sets the
 * client address from the socket and serves the ingestion routes on its fast path; FAST_PATH=0 in
 * the bench's environment turns that off for every server). Every run also starts a plain
 * `next start` (label `next-start`) that runs only `noop`: the reference row. Each scenario is
 * printed with its ratio to its own server's `noop` and to that reference (`vs next`), per round
 * as min/median/max over BENCH_ROUNDS. Scenarios restricted to the `none` limiter (ingestion) get a
 * server of their own with limits off when BENCH_RATE_LIMIT_BACKENDS has no `none`. Scenarios with
 * lasting side effects (workflow starts, executed by the worker meanwhile) run after all others.
 * Before the first round every scenario without lasting side effects runs BENCH_WARMUP seconds
 * (default 2; 0: none) on each server, unmeasured, and so does the reference.
 * BENCH_ONLY=track.*,session.create.key runs those scenarios (and `noop`); `*` matches any text.
 * BENCH_SLOW_PATH=1 adds a server with FAST_PATH=0 (label `next-path`, limits off) for the scenarios the fast path serves
 * (ingestion, the leads tool, MCP).
 * BENCH_TRACE=1 prints each sample as it ends (stderr: start and end in epoch ms, server, scenario, round,
 * req/s, p99), to line a slow round up with what the machine or the database did meanwhile.
 * BENCH_CPU_PROFILE=<dir> makes the server entries write V8 CPU profiles there (`node --cpu-prof`).
 * BENCH_COMPARE_DIR=<dir> adds a server from another built checkout (label `compare`; e.g. the
 * previous commit, for a before/after in one run) that runs every scenario like the first backend.
 * Resident memory is printed at start (idle_rss_mb: no database opened yet), once the database is
 * open and the server idle again (db_idle_rss_mb), and after the load (rss_after_mb); with its worker
 * process beside it, that process's too (worker_idle_rss_mb…; embedded, the one that holds PGlite).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { scenarios } from './scenarios';
import { seed, stop, unlimitedPlan, waitUp } from './server-process';
import { startOptions } from './start-options';

const PORT = Number(process.env.BENCH_PORT ?? 3210);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_ONLY?.split(',')
  .map((p) => p.trim())
  .filter(Boolean)
  .map((p) => new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`));
const selected = (name: string) => name === 'noop' || !ONLY || ONLY.some((p) => p.test(name));
const BACKENDS = process.env.BENCH_RATE_LIMIT_BACKENDS?.split(',').filter(Boolean) ?? [process.env.RATE_LIMIT_BACKEND ?? 'memory'];
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TRACE = process.env.BENCH_TRACE === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (BACKENDS.length > 1 ? 3 : 1));
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Resident memory (MB) of the server and, as `worker_…`, of its child processes (the worker; embedded, the database's holder). */
async function rssLine(name: string, pid: number): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  const children = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  const pids = children.split(/\s+/).filter(Boolean).map(Number);
  const line = `${name}=${await rssMb(pid)}`;
  if (!pids.length) return line;
  let worker = 0;
  for (const child of pids) worker += await rssMb(child);
  return `${line} worker_${name}=${worker}`;
}

const SLOW_PATH = process.env.BENCH_SLOW_PATH === '1';
// BENCH_COMPARE_DIR=<dir>: another built checkout of the app (e.g. the previous commit), served the same way.
const COMPARE_DIR = process.env.BENCH_COMPARE_DIR;
// BENCH_CPU_PROFILE=<dir>: each server entry writes a V8 CPU profile there when it stops.
const PROFILE = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE}`] : [];

/** `npm start`'s server entry, or (`plain`) Next's own `next start` for comparison. */
function startServer(env: Record<string, string>, port = PORT, plain = false, cwd = process.cwd()): ChildProcess {
  const [command, args] = plain
    ? [path.join(cwd, 'node_modules', '.bin', 'next'), ['start', '-p', String(port), '-H', '127.0.0.1']]
    : [process.execPath, [...startOptions(cwd), ...PROFILE, path.join(cwd, 'server.mjs'), '-p', String(port), '-H', '127.0.0.1']];
  return spawn(command, args, {
    cwd,
    env: { ...process.env, ...env, LOG_LEVEL: 'error', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

async function startBridge(): Promise<{ child: ChildProcess; url: string; token: string }> {
  const child = spawn(path.join('node_modules', '.bin', 'tsx'), ['tests/helpers/upstash-bridge-cli.ts'], {
    env: { ...process.env, REDIS_URL },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = await createInterface({ input: child.stdout! })
    [Symbol.asyncIterator]()
    .next()
    .then((r) => [r.value as string]);
  return { child, ...JSON.parse(line) };
}

interface Row {
  backend: string;
  name: string;
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** req/s of each round, in round order. */
  rounds: number[];
  /** The reference (`next start` noop) req/s sampled with each round's sample. */
  references: number[];
}

const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-bench-'));
  const prefix = `sgp-bench-${randomBytes(4).toString('hex')}`;
  const rows: Row[] = [];
  let bridge: Awaited<ReturnType<typeof startBridge>> | undefined;
  const servers: ChildProcess[] = [];
  try {
    const seeding = startServer({ DATA_DIR: path.join(dataDir, 'seed'), RATE_LIMIT_BACKEND: 'none' });
    servers.push(seeding);
    await waitUp(BASE, seeding);
    const s = await seed(BASE);
    await stop(seeding);
    await unlimitedPlan(s.siteId, { DATA_DIR: path.join(dataDir, 'seed') });
    if (BACKENDS.includes('upstash')) bridge = await startBridge();

    const dbBackend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    console.log(`backend=${dbBackend} duration=${DURATION}s connections=${CONNECTIONS} limiters=${BACKENDS.join(',')} rounds=${ROUNDS}`);
    const all = scenarios({ ...s });
    const wanted = all.filter((sc) => selected(sc.name));
    const needsNone = !BACKENDS.includes('none') && wanted.some((sc) => sc.onlyLimiter === 'none');
    // Each target is one server; `label` names its rows (the limiter backend, `next-start`, …).
    type Spec = {
      label: string;
      backend: string;
      plain: boolean;
      cwd?: string;
      env?: Record<string, string>;
      only?: 'noop' | 'limiterNone' | 'fastPath';
    };
    const targetSpecs: Spec[] = [
      ...BACKENDS.map((backend) => ({ label: backend, backend, plain: false })),
      // Ingestion is measured without limits: a server with limits off when the run has none.
      ...(needsNone ? [{ label: 'none', backend: 'none', plain: false, only: 'limiterNone' as const }] : []),
      ...(SLOW_PATH ? [{ label: 'next-path', backend: 'none', plain: false, env: { FAST_PATH: '0' }, only: 'fastPath' as const }] : []),
      { label: 'next-start', backend: BACKENDS[0], plain: true, only: 'noop' },
      ...(COMPARE_DIR ? [{ label: 'compare', backend: BACKENDS[0], plain: false, cwd: path.resolve(COMPARE_DIR) }] : []),
    ];
    const targets = targetSpecs.map(({ label, backend, plain, cwd, env, only }, i) => {
      const dir = path.join(dataDir, label);
      cpSync(path.join(dataDir, 'seed'), dir, { recursive: true });
      const port = PORT + i;
      const child = startServer(
        {
          DATA_DIR: dir,
          RATE_LIMIT_BACKEND: backend,
          RATE_LIMIT_PREFIX: prefix,
          ...(bridge ? { UPSTASH_REDIS_REST_URL: bridge.url, UPSTASH_REDIS_REST_TOKEN: bridge.token } : {}),
          ...env,
        },
        port,
        plain,
        cwd,
      );
      servers.push(child);
      return { label, backend, plain, only, base: `http://127.0.0.1:${port}`, child };
    });
    for (const t of targets) await waitUp(t.base, t.child);
    for (const t of targets) console.log(`server=${t.label} ${await rssLine('idle_rss_mb', t.child.pid!)}`);
    // One API-key request opens the database (and migrates); then the server idles for a moment.
    for (const t of targets) await fetch(`${t.base}/sites`, { headers: { 'x-api-key': s.apiKey } }).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 2000));
    for (const t of targets) console.log(`server=${t.label} ${await rssLine('db_idle_rss_mb', t.child.pid!)}`);

    const totals = new Map<string, Row & { samples: number }>();
    // Each server gets the scenarios with its own base URL, so setups seed the data that server reads.
    const perTarget = targets.map((t) => scenarios({ ...s, base: t.base }));
    // Scenarios with lasting side effects after every other one, so their aftermath loads nobody else's run.
    const names = [...wanted.filter((sc) => !sc.lasting), ...wanted.filter((sc) => sc.lasting)].map((sc) => sc.name);
    const runsOn = (t: (typeof targets)[number], scenario: (typeof all)[number]) => {
      if (t.only === 'noop') return scenario.name === 'noop';
      if (t.only === 'limiterNone') return scenario.name === 'noop' || scenario.onlyLimiter === 'none';
      if (t.only === 'fastPath') return scenario.name === 'noop' || scenario.onlyLimiter === 'none' || scenario.fastPath === true;
      return !scenario.onlyLimiter || scenario.onlyLimiter === t.backend;
    };
    const referenceTarget = targets.find((t) => t.label === 'next-start')!;
    const referenceNoop = perTarget[targets.indexOf(referenceTarget)].find((sc) => sc.name === 'noop')!;
    const sample = (t: (typeof targets)[number], scenario: (typeof all)[number]) =>
      autocannon({ url: t.base + scenario.path, connections: CONNECTIONS, duration: DURATION / ROUNDS, ...scenario.request });
    // Warm-up: every scenario without lasting side effects (and the reference) once on each server, unmeasured.
    const warmed = new Set<string>();
    if (WARMUP > 0) {
      await autocannon({ url: referenceTarget.base + referenceNoop.path, connections: CONNECTIONS, duration: WARMUP });
      for (const name of names)
        for (const [i, t] of targets.entries()) {
          const scenario = perTarget[i].find((sc) => sc.name === name)!;
          if (scenario.lasting || !runsOn(t, scenario)) continue;
          await scenario.setup?.();
          warmed.add(`${t.label}/${scenario.name}`);
          await autocannon({ url: t.base + scenario.path, connections: CONNECTIONS, duration: WARMUP, ...scenario.request });
        }
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        // The reference is sampled right before each scenario of each round: on a machine whose load
        // moves, a ratio compares two samples taken under the same load.
        const reference = name === 'noop' ? undefined : (await sample(referenceTarget, referenceNoop)).requests.average;
        for (const [i, t] of targets.entries()) {
          const scenario = perTarget[i].find((sc) => sc.name === name)!;
          if (!runsOn(t, scenario)) continue;
          if (round === 0 && !warmed.has(`${t.label}/${scenario.name}`)) await scenario.setup?.();
          const traceStart = Date.now();
          const result = await sample(t, scenario);
          if (TRACE)
            console.error(
              `TRACE ${traceStart} ${Date.now()} ${t.label} ${scenario.name} r${round} rps=${Math.round(result.requests.average)} p99=${result.latency.p99}`,
            );
          const id = `${t.label}/${scenario.name}`;
          const row = totals.get(id) ?? {
            backend: t.label,
            name: scenario.name,
            rps: 0,
            p99: 0,
            errors: 0,
            non2xx: 0,
            samples: 0,
            rounds: [],
            references: [],
          };
          row.rps += result.requests.average;
          row.rounds.push(result.requests.average);
          if (reference !== undefined) row.references.push(reference);
          row.p99 = Math.max(row.p99, result.latency.p99);
          row.errors += result.errors;
          row.non2xx += result.non2xx;
          row.samples += 1;
          totals.set(id, row);
        }
        // noop: every server's sample of this round against the reference's of the same round.
        if (name === 'noop') {
          const ref = totals.get(`next-start/noop`)!.rounds[round];
          for (const t of targets) totals.get(`${t.label}/noop`)?.references.push(ref);
        }
      }
    }
    for (const row of totals.values()) rows.push({ ...row, rps: Math.round(row.rps / row.samples) });
    for (const t of targets) console.log(`server=${t.label} ${await rssLine('rss_after_mb', t.child.pid!)}`);

    console.log(
      '\nscenario'.padEnd(24) +
        'server'.padStart(10) +
        'req/s'.padStart(8) +
        'ratio'.padStart(8) +
        'vs none'.padStart(9) +
        'vs next (min/med/max)'.padStart(23) +
        'p99 ms'.padStart(8) +
        'non2xx'.padStart(8) +
        'errors'.padStart(8),
    );
    const labels = targets.map((t) => t.label);
    const reference = rows.find((x) => x.backend === 'next-start' && x.name === 'noop');
    const referenceSamples = [...totals.values()].flatMap((row) => (row.name === 'noop' ? [] : row.references));
    for (const r of rows.sort((a, b) => names.indexOf(a.name) - names.indexOf(b.name) || labels.indexOf(a.backend) - labels.indexOf(b.backend))) {
      const noop = rows.find((x) => x.backend === r.backend && x.name === 'noop')?.rps ?? NaN;
      const none = rows.find((x) => x.backend === 'none' && x.name === r.name)?.rps;
      // Per round: this scenario's req/s over the reference no-op's sampled with it.
      const ratios = r.rounds.map((rps, k) => rps / r.references[k]);
      const vsNext =
        ratios.length && ratios.every(Number.isFinite)
          ? [Math.min(...ratios), median(ratios), Math.max(...ratios)].map((x) => x.toFixed(2)).join(' / ')
          : '-';
      console.log(
        r.name.padEnd(23) +
          r.backend.padStart(10) +
          String(r.rps).padStart(8) +
          (r.rps / noop).toFixed(2).padStart(8) +
          (none && r.backend !== 'none' ? (r.rps / none).toFixed(2) : '-').padStart(9) +
          vsNext.padStart(23) +
          String(r.p99).padStart(8) +
          String(r.non2xx).padStart(8) +
          String(r.errors).padStart(8),
      );
    }
    if (reference) {
      const all = [...reference.rounds, ...new Set(referenceSamples)].map(Math.round);
      console.log(
        `\nreference: next start noop ${reference.rps} req/s (samples min/median/max ${Math.min(...all)} / ${median(all)} / ${Math.max(...all)}), p99 ${reference.p99} ms`,
      );
    }
  } finally {
    await Promise.all(servers.map(stop));
    if (bridge) {
      const redis = new Redis(REDIS_URL);
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length) await redis.del(...keys);
      redis.disconnect();
      await stop(bridge.child);
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
