/**
 * Background work and the request path: `npx tsx bench/background.ts` (after `npm run build`).
 *
 * Two servers as `npm start` runs them, side by side on copies of one seeded data directory:
 * `on` (WORKERS=on: the worker process beside the web process; with PGlite it holds the database)
 * and `off` (WORKERS=off: no background work). Printed, as ratios measured in the same run:
 *
 * - the no-op route (GET /api/health) on each, in interleaved rounds (min/median/max req/s, p99);
 * - on `on`, the no-op route while ~100 workflow runs and ~500 webhook deliveries are worked through
 *   (p99 and the slowest request, against its idle p99);
 * - `POST /api/workflow/dailyStandUp` alone, as a ratio to the no-op route;
 * - resident memory of the web process and of its worker (idle with the database open, after).
 *
 * DATABASE_URL=<admin url> runs it on Postgres (a database of its own per server, dropped after).
 * BENCH_PORT (default 4300), BENCH_DURATION (seconds per round, default 5), BENCH_ROUNDS (default 3),
 * BENCH_CONNECTIONS (default 50).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { adminSql as runAdminSql, databaseUrl } from './admin';
import { stop, waitUp } from './server-process';
import { startOptions } from './start-options';

const PORT = Number(process.env.BENCH_PORT ?? 4300);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ADMIN_URL = process.env.DATABASE_URL;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function startServer(env: Record<string, string>, port: number): ChildProcess {
  const { DATABASE_URL: _d, ...inherited } = process.env;
  return spawn(process.execPath, [...startOptions(), 'server.mjs', '-p', String(port), '-H', '127.0.0.1'], {
    env: { ...inherited, LOG_LEVEL: 'error', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1', ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

/** Resident memory (MB) of a process and of its descendants. */
function rss(pid: number): { web: number; children: number } {
  const of = (p: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const kids = (p: number): number[] =>
    spawnSync('ps', ['-o', 'pid=', '--ppid', String(p)], { encoding: 'utf8' })
      .stdout.split('\n')
      .map((l) => Number(l.trim()))
      .filter(Boolean)
      .flatMap((k) => [k, ...kids(k)]);
  let children = 0;
  for (const k of kids(pid)) {
    try {
      children += of(k);
    } catch {
      /* gone */
    }
  }
  return { web: Math.round(of(pid)), children: Math.round(children) };
}

async function json(base: string, method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(parsed)}`);
  return parsed;
}

async function load(url: string, o: { duration?: number; method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: o.duration ?? DURATION,
    method: (o.method ?? 'GET') as 'GET',
    body: o.body,
    headers: o.headers,
  });
  return { rps: r.requests.average, p99: r.latency.p99, max: r.latency.max, non2xx: r.non2xx, errors: r.errors };
}

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return { min: Math.round(s[0]), median: Math.round(s[Math.floor(s.length / 2)]), max: Math.round(s.at(-1)!) };
};

const adminSql = (sql: string) => runAdminSql(ADMIN_URL!, sql);

async function main() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sgp-bgbench-'));
  const servers: ChildProcess[] = [];
  const databases: string[] = [];
  const receiver = http.createServer((req, res) => {
    received++;
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  let received = 0;
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  const dbUrl = (name: string) => databaseUrl(ADMIN_URL!, name);
  try {
    // One seeded data directory (or database), copied for each server.
    const seedDir = path.join(root, 'seed');
    const seedDb = ADMIN_URL ? `sgp_bgbench_${randomBytes(4).toString('hex')}` : undefined;
    if (seedDb) {
      await adminSql(`create database ${seedDb}`);
      databases.push(seedDb);
    }
    const seedEnv = { DATA_DIR: seedDir, RATE_LIMIT_BACKEND: 'none', ...(seedDb ? { DATABASE_URL: dbUrl(seedDb) } : {}) };
    const seeding = startServer(seedEnv, PORT);
    await waitUp(`http://127.0.0.1:${PORT}`);
    const base0 = `http://127.0.0.1:${PORT}`;
    const email = `bgbench-${Date.now()}@example.com`;
    await json(base0, 'POST', '/api/auth/signup', { email, password: 'bench password 123' });
    const { token } = (await json(base0, 'POST', '/api/auth/token', { email, password: 'bench password 123' })).data;
    const site = (
      await json(base0, 'POST', '/api/visitors/sites', { name: 'Bench', domain: 'bench.example.com' }, { authorization: `Bearer ${token}` })
    ).data;
    const key = (
      await json(
        base0,
        'POST',
        '/api/keys',
        { name: 'bench', scopes: ['read', 'write'], site_id: site.id, expirationDays: 1 },
        { authorization: `Bearer ${token}` },
      )
    ).data.apiKey;
    await stop(seeding);
    const plan = spawnSync(path.join('node_modules', '.bin', 'tsx'), ['scripts/site-plan.ts', site.id, 'enterprise', '100000000', '100000'], {
      env: { ...process.env, ...seedEnv },
      stdio: 'inherit',
    });
    if (plan.status !== 0) throw new Error('site-plan failed');

    const labels = ['on', 'off'] as const;
    const targets = [];
    for (const [i, label] of labels.entries()) {
      const dir = path.join(root, label);
      cpSync(seedDir, dir, { recursive: true });
      let dbEnv = {};
      if (seedDb) {
        const name = `${seedDb}_${label}`;
        await adminSql(`create database ${name} template ${seedDb}`);
        databases.push(name);
        dbEnv = { DATABASE_URL: dbUrl(name) };
      }
      const port = PORT + 1 + i;
      const child = startServer({ DATA_DIR: dir, RATE_LIMIT_BACKEND: 'none', WORKERS: label, OUTBOUND_ALLOW_HOSTS: '127.0.0.1', ...dbEnv }, port);
      servers.push(child);
      targets.push({ label, base: `http://127.0.0.1:${port}`, child });
    }
    for (const t of targets) await waitUp(t.base);
    for (const t of targets) await fetch(`${t.base}/sites`, { headers: { 'x-api-key': key } }).then((r) => r.arrayBuffer());
    await sleep(3000);
    const memory: Record<string, unknown> = {};
    for (const t of targets) memory[`${t.label}_db_idle`] = rss(t.child.pid!);

    const backend = ADMIN_URL ? 'postgres' : 'pglite';
    console.log(
      `backend=${backend} rounds=${ROUNDS}x${DURATION}s connections=${CONNECTIONS} load=${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(',')}`,
    );
    // Warm-up, then interleaved no-op rounds.
    for (const t of targets) await load(`${t.base}/api/health`, { duration: 2 });
    const idle: Record<string, { rps: number[]; p99: number[]; max: number[] }> = {
      on: { rps: [], p99: [], max: [] },
      off: { rps: [], p99: [], max: [] },
    };
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of r % 2 ? [...targets].reverse() : targets) {
        const x = await load(`${t.base}/api/health`);
        idle[t.label].rps.push(x.rps);
        idle[t.label].p99.push(x.p99);
        idle[t.label].max.push(x.max);
      }
    }
    for (const label of labels)
      console.log(
        `noop idle ${label.padEnd(3)} req/s ${JSON.stringify(stats(idle[label].rps))} p99 ms ${JSON.stringify(stats(idle[label].p99))} max ms ${Math.max(...idle[label].max)}`,
      );
    const ratios = idle.on.rps.map((v, i) => v / idle.off.rps[i]);
    console.log(`noop on/off per round: ${ratios.map((x) => x.toFixed(2)).join(' ')} (median ${stats(ratios.map((x) => x * 100)).median / 100})`);

    // Background load on `on`: ~100 runs and ~500 deliveries while the no-op route is measured.
    const on = targets[0];
    const auth = { 'x-api-key': key };
    await json(on.base, 'POST', '/api/webhooks', { site_id: site.id, url: hookUrl, events: ['lead.created', 'workflow.completed'] }, auth);
    const before = received;
    const queued = (async () => {
      for (let i = 0; i < 100; i++) await json(on.base, 'POST', '/api/workflow/dailyStandUp', { site_id: site.id }, auth);
      for (let i = 0; i < 400; i++)
        await json(
          on.base,
          'POST',
          '/api/agents/tools/leads/create',
          { site_id: site.id, name: `Lead ${i}`, email: `lead${i}-${randomBytes(3).toString('hex')}@example.com` },
          { authorization: `Bearer ${key}` },
        );
    })();
    const busy = await load(`${on.base}/api/health`, { duration: DURATION * 2 });
    await queued;
    const startedWaiting = Date.now();
    while (received - before < 500 && Date.now() - startedWaiting < 300_000) await sleep(200);
    const idleP99 = stats(idle.on.p99).median;
    console.log(
      `noop while working through 100 runs + ${received - before} deliveries: ${Math.round(busy.rps)} req/s, p99 ${busy.p99} ms (${(busy.p99 / idleP99).toFixed(2)}x idle p99 ${idleP99} ms), slowest ${busy.max} ms, errors ${busy.errors}`,
    );

    // workflow.start alone, against the no-op route measured right before.
    const noop = await load(`${on.base}/api/health`);
    const start = await load(`${on.base}/api/workflow/dailyStandUp`, {
      method: 'POST',
      body: JSON.stringify({ site_id: site.id }),
      headers: { 'content-type': 'application/json', ...auth },
    });
    console.log(
      `workflow.start ${Math.round(start.rps)} req/s vs noop ${Math.round(noop.rps)}: ${(start.rps / noop.rps).toFixed(2)}x (p99 ${start.p99} ms, non2xx ${start.non2xx})`,
    );
    for (const t of targets) memory[`${t.label}_after`] = rss(t.child.pid!);
    console.log(`resident MB (web process / its worker process): ${JSON.stringify(memory)}`);
  } finally {
    await Promise.all(servers.map(stop));
    receiver.close();
    for (const name of databases.reverse()) await adminSql(`drop database if exists ${name} with (force)`).catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
