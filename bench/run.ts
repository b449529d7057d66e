/**
 * `npm run bench`: builds nothing; starts `next start` on the built app (run `npm run build`
 * first) with a fresh data directory, seeds a user, site and key, then runs each scenario with
 * autocannon and prints requests/s, p99 and the ratio to the no-op route of the same run.
 *
 *   BENCH_DURATION=10 BENCH_CONNECTIONS=50 DATABASE_URL=postgres://... npm run bench
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { scenarios, type Seed } from './scenarios';

const PORT = Number(process.env.BENCH_PORT ?? 3210);
const BASE = `http://127.0.0.1:${PORT}`;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const ONLY = process.env.BENCH_ONLY?.split(',');

async function json(method: string, url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(BASE + url, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const parsed = await res.json();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(parsed)}`);
  return parsed.data;
}

async function seed(): Promise<Seed> {
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password 123';
  await json('POST', '/api/auth/signup', { email, password });
  const { token } = await json('POST', '/api/auth/token', { email, password });
  const auth = { authorization: `Bearer ${token}` };
  const site = await json('POST', '/api/visitors/sites', { name: 'Bench', domain: 'bench.example.com' }, auth);
  const key = await json('POST', '/api/keys', { name: 'bench', scopes: ['read', 'write'], site_id: site.id, expirationDays: 1 }, auth);
  return { base: BASE, siteId: site.id, apiKey: key.apiKey, sessionToken: token };
}

async function waitUp(): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${BASE}/api/health`)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

async function rssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sgp-bench-'));
  const server = spawn(path.join('node_modules', '.bin', 'next'), ['start', '-p', String(PORT)], {
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'error', NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitUp();
    const s = await seed();
    const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
    console.log(`backend=${backend} duration=${DURATION}s connections=${CONNECTIONS} idle_rss_mb=${await rssMb(server.pid!)}`);
    const rows: { name: string; rps: number; p99: number; errors: number; non2xx: number }[] = [];
    for (const scenario of scenarios(s)) {
      if (ONLY && !ONLY.includes(scenario.name) && scenario.name !== 'noop') continue;
      await scenario.setup?.();
      const result = await autocannon({ url: BASE + scenario.path, connections: CONNECTIONS, duration: DURATION, ...scenario.request });
      rows.push({
        name: scenario.name,
        rps: Math.round(result.requests.average),
        p99: result.latency.p99,
        errors: result.errors,
        non2xx: result.non2xx,
      });
    }
    const noop = rows.find((r) => r.name === 'noop')?.rps ?? NaN;
    console.log('\nscenario'.padEnd(28) + 'req/s'.padStart(8) + 'ratio'.padStart(8) + 'p99 ms'.padStart(9) + 'non2xx'.padStart(9) + 'errors'.padStart(8));
    for (const r of rows) {
      console.log(
        r.name.padEnd(27) + String(r.rps).padStart(8) + (r.rps / noop).toFixed(2).padStart(8) + String(r.p99).padStart(9) + String(r.non2xx).padStart(9) + String(r.errors).padStart(8),
      );
    }
    console.log(`\nrss_after_mb=${await rssMb(server.pid!)}`);
  } finally {
    server.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
