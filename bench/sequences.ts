/**
 * Sequences at scale and the request path: `npm run bench:sequences` (after `npm run build`).
 *
 * One server as `npm start` runs it, on a fresh data directory (PGlite, the default) or a database
 * of its own (DATABASE_URL=<admin url>: created, dropped after), its mail going to an SMTP server on
 * loopback (`tests/helpers/smtp-standin.ts`, counting only) that accepts everything. The site holds
 * BENCH_LEADS leads (default 10,000, 500 recipient domains) in one segment and a two-step sequence
 * whose first step is due at once (no send window, daily cap 100,000, 600 a minute per domain:
 * neither is reached; tracking on). Printed:
 *
 * - the no-op route's (GET /api/health) p50/p99 idle, BENCH_ROUNDS rounds after a warm-up;
 * - the enroll call (`POST /api/sequences/{id}/enrollments` with the segment) and its time;
 * - while the worker sends: rounds of BENCH_DURATION seconds, the mail server answering (`busy`),
 *   and after every BENCH_HOLD_EVERY (default 1) of them one holding its answers (`held`: the
 *   senders wait, nothing else runs), until every step went out; min/median/max of p50 and p99 of
 *   each, and p99 of the busy round before each held one over the held one's;
 * - the sending rate: steps per second of `busy` time, and the whole from the enroll call to the last.
 *
 * The load is BENCH_RATE requests/s over BENCH_CONNECTIONS connections (default 200 over 10: a
 * latency figure, not the server's saturation; BENCH_RATE=0 sends as fast as it can).
 * BENCH_WORKER=beside (default: `npm start` starts the worker as its own process beside the web
 * process; with PGlite that process holds the database) or `apart` (Postgres only: the web process
 * with WORKERS=off and `npm run worker`'s bundle as a separate process). BENCH_PORT (default 4400).
 * BENCH_MAX_SECONDS caps the working-through (default 3,600): the steps sent by then are counted, and
 * the rounds after it are held ones (the rest still waiting).
 * BENCH_CPU_PROFILE=<dir>: the web process (and the worker, `apart`) write V8 CPU profiles there when they stop.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { database, getDb } from '@/lib/db/client';
import { setSitePlan } from '@/lib/sites/repo';
import { startSmtpStandIn } from '@/tests/helpers/smtp-standin';
import { adminSql as runAdminSql, databaseUrl } from './admin';
import { seed, stop, waitUp, withEnv } from './server-process';
import { startOptions } from './start-options';

const PORT = Number(process.env.BENCH_PORT ?? 4400);
const BASE = `http://127.0.0.1:${PORT}`;
const LEADS = Number(process.env.BENCH_LEADS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const RATE = Number(process.env.BENCH_RATE ?? 200);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? (RATE > 0 ? 10 : 50));
const WORKER = process.env.BENCH_WORKER === 'apart' ? 'apart' : 'beside';
const ADMIN_URL = process.env.DATABASE_URL;
const MAX_SECONDS = Number(process.env.BENCH_MAX_SECONDS ?? 3_600);
const HOLD_EVERY = Math.max(1, Number(process.env.BENCH_HOLD_EVERY ?? 1));
const DOMAINS = 500;
const PROFILE = process.env.BENCH_CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROFILE)}`] : [];

type Sample = { p50: number; p99: number; max: number; rps: number; non2xx: number; errors: number };

async function noop(duration = DURATION): Promise<Sample> {
  const r = await autocannon({ url: `${BASE}/api/health`, connections: CONNECTIONS, duration, ...(RATE > 0 ? { overallRate: RATE } : {}) });
  return { p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, rps: r.requests.average, non2xx: r.non2xx, errors: r.errors };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
const spread = (xs: number[]) => [Math.min(...xs), median(xs), Math.max(...xs)].map((x) => Number(x.toFixed(2))).join(' / ');

async function json(method: string, url: string, body: unknown, key: string) {
  const res = await fetch(BASE + url, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

const adminSql = (query: string) => runAdminSql(ADMIN_URL!, query);

/** The mail server's gate: closed, each message's answer waits until it opens. */
function gate() {
  let open = true;
  let waiting: (() => void)[] = [];
  return {
    wait: () => (open ? Promise.resolve() : new Promise<void>((r) => waiting.push(r))),
    close: () => void (open = false),
    open: () => {
      open = true;
      const released = waiting;
      waiting = [];
      released.forEach((r) => r());
    },
  };
}

/** The worker bundle `npm run build` writes, started as `npm run worker` would be; resolves once it says it is ready. */
async function startWorker(env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const bundle = path.join(process.cwd(), '.next', 'worker.cjs');
  if (!existsSync(bundle)) throw new Error('no .next/worker.cjs: run `npm run build` first');
  const child = spawn(process.execPath, [...PROFILE, bundle], { env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise<void>((resolve, reject) => {
    child.on('message', (m: { ready?: boolean }) => m?.ready && resolve());
    child.once('exit', (code) => reject(new Error(`the worker exited before it was ready (code ${code})`)));
  });
  return child;
}

async function main() {
  if (WORKER === 'apart' && !ADMIN_URL) throw new Error('BENCH_WORKER=apart needs DATABASE_URL (PGlite is held by one process)');
  const root = mkdtempSync(path.join(os.tmpdir(), 'sgp-seqbench-'));
  const dbName = ADMIN_URL ? `sgp_seqbench_${randomBytes(4).toString('hex')}` : undefined;
  const processes: ChildProcess[] = [];
  const mailGate = gate();
  const smtp = await startSmtpStandIn(undefined, { keep: false, beforeAnswer: mailGate.wait });
  try {
    let dbEnv: Record<string, string | undefined> = { DATABASE_URL: undefined };
    if (dbName) {
      await adminSql(`create database ${dbName}`);
      dbEnv = { DATABASE_URL: databaseUrl(ADMIN_URL!, dbName) };
    }
    const env = withEnv({
      ...dbEnv,
      DATA_DIR: path.join(root, 'data'),
      RATE_LIMIT_BACKEND: 'none',
      SMTP_URL: smtp.url,
      EMAIL_FROM: 'Bench <hello@bench.example.com>',
      LOG_LEVEL: 'error',
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
    });
    const startServer = (extra: Record<string, string>) => {
      const child = spawn(process.execPath, [...startOptions(), ...PROFILE, 'server.mjs', '-p', String(PORT), '-H', '127.0.0.1'], {
        env: { ...env, ...extra },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      processes.push(child);
      return child;
    };

    // A user, site and key through the API; a segment; then (server stopped: PGlite allows one process) the leads and plan.
    const seeding = startServer({});
    await waitUp(BASE, seeding);
    const s = await seed(BASE);
    const segment = (await json('POST', '/api/agents/tools/segments/create', { site_id: s.siteId, name: 'Bench leads' }, s.apiKey)).segment
      .segment_id as string;
    await stop(seeding);
    Object.assign(process.env, env);
    for (const [k, v] of Object.entries(dbEnv)) if (v === undefined) delete process.env[k];
    const db = await database();
    try {
      await setSitePlan(s.siteId, { plan: 'enterprise', rate_limit_per_minute: 100_000_000, concurrency_limit: 100_000 });
      await (
        await getDb()
      ).execute(sql`insert into leads (site_id, name, email, company, position, segment_id)
        select ${s.siteId}, 'First' || g || ' Last' || g, 'lead' || g || '@d' || (g % ${DOMAINS}) || '.bench.example', 'Company ' || (g % 700), 'Engineer', ${segment}
        from generate_series(1, ${LEADS}) g`);
    } finally {
      await db.close();
    }

    const server = startServer({ WORKERS: WORKER === 'apart' ? 'off' : 'on' });
    await waitUp(BASE, server);
    if (WORKER === 'apart') processes.push(await startWorker({ ...env, WORKERS: 'off' }));
    const sequence = (
      await json(
        'POST',
        '/api/sequences',
        {
          site_id: s.siteId,
          name: 'Bench welcome',
          steps: [
            {
              delay_minutes: 0,
              subject: 'Hi {{first_name|there}}',
              body: 'Hello {{first_name|there}} at {{company|your company}}, our offer: https://bench.example.com/offer',
            },
            { delay_minutes: 3 * 1_440, subject: 'Following up', body: 'Any thoughts, {{first_name|there}}?' },
          ],
          daily_cap: 100_000,
          domain_per_minute: 600,
        },
        s.apiKey,
      )
    ).data.id as string;

    console.log(
      `backend=${dbName ? 'postgres' : 'pglite'} worker=${WORKER} leads=${LEADS} rounds=${ROUNDS}x${DURATION}s held after every ${HOLD_EVERY} load=${RATE > 0 ? `${RATE} req/s` : 'max'} over ${CONNECTIONS} connections machine_load=${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(',')}`,
    );
    await noop(2); // warm-up, unmeasured
    const idle: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) idle.push(await noop());

    const sentBefore = smtp.accepted; // the sign-up's mail
    const sent = () => smtp.accepted - sentBefore;
    const enrollStart = performance.now();
    const enrolled = (await json('POST', `/api/sequences/${sequence}/enrollments`, { site_id: s.siteId, segment_id: segment }, s.apiKey)).data;
    const enrollMs = performance.now() - enrollStart;
    if (enrolled.enrolled !== LEADS) throw new Error(`enrolled ${enrolled.enrolled} of ${LEADS}`);

    // Busy and held rounds in turn until every first step went out.
    const busy: Sample[] = [];
    const held: Sample[] = [];
    const pairs: number[] = [];
    let lastReport = { at: performance.now(), sent: 0 };
    let busyMs = 0;
    const deadline = Date.now() + MAX_SECONDS * 1000;
    while (sent() < LEADS && Date.now() < deadline) {
      const t0 = performance.now();
      const before = sent();
      busy.push(await noop());
      busyMs += performance.now() - t0;
      if (sent() === before && busy.length > 3) console.log(`(no step sent during busy round ${busy.length})`);
      if (sent() >= LEADS) break;
      if (busy.length % 25 === 0) {
        const at = performance.now();
        console.log(`… ${sent()} sent, ${((sent() - lastReport.sent) / ((at - lastReport.at) / 1000)).toFixed(1)} steps/s since the last line`);
        lastReport = { at, sent: sent() };
      }
      if (busy.length % HOLD_EVERY !== 0) continue;
      mailGate.close();
      held.push(await noop());
      mailGate.open();
      pairs.push(busy.at(-1)!.p99 / held.at(-1)!.p99);
    }
    const allMs = performance.now() - enrollStart;
    const capped = sent() < LEADS;
    if (capped) mailGate.close(); // the rest wait: the rounds after are held ones
    const detail = (await json('GET', `/api/sequences/${sequence}?site_id=${s.siteId}&limit=1`, undefined, s.apiKey)).data;
    const after: Sample[] = [];
    for (let r = 0; r < ROUNDS; r++) after.push(await noop());

    const line = (label: string, xs: Sample[]) =>
      console.log(
        `${label.padEnd(26)} rounds ${String(xs.length).padStart(3)}  p50 ms ${spread(xs.map((x) => x.p50)).padEnd(14)} p99 ms ${spread(xs.map((x) => x.p99)).padEnd(16)} slowest ${Math.max(...xs.map((x) => x.max))} ms  req/s ${Math.round(median(xs.map((x) => x.rps)))}  non2xx ${xs.reduce((n, x) => n + x.non2xx + x.errors, 0)}`,
      );
    console.log('');
    line('noop idle (before)', idle);
    line('noop while sending', busy);
    line('noop mail held (between)', held);
    line(capped ? 'noop mail held (after)' : 'noop idle (after)', after);
    const idleP99 = median((capped ? idle : [...idle, ...after]).map((x) => x.p99));
    console.log(
      `\np99 while sending / idle p99 (median of the idle rounds, ${idleP99} ms): ${(median(busy.map((x) => x.p99)) / idleP99).toFixed(2)}x` +
        ` (worst round ${(Math.max(...busy.map((x) => x.p99)) / idleP99).toFixed(2)}x);` +
        ` per busy/held pair: ${pairs.length ? spread(pairs) : '-'}`,
    );
    console.log(`enroll ${LEADS} leads (one call, segment): ${Math.round(enrollMs)} ms`);
    console.log(
      `sent ${sent()} of ${LEADS} first steps${capped ? ` (stopped at BENCH_MAX_SECONDS=${MAX_SECONDS})` : ''}: ${(sent() / (busyMs / 1000)).toFixed(1)} steps/s of busy time (${(busyMs / 1000).toFixed(0)} s); ${(allMs / 1000).toFixed(0)} s from the enroll call to the ${capped ? 'cap' : 'last'}, held rounds included`,
    );
    console.log(
      `figures: enrolled ${detail.figures.enrolled}, sent ${detail.figures.sent}, active ${detail.figures.active}, failed ${detail.figures.failed}`,
    );
  } finally {
    mailGate.open();
    for (const child of processes.reverse()) await stop(child);
    await smtp.close();
    if (dbName) await adminSql(`drop database if exists ${dbName} with (force)`).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
