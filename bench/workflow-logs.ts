/**
 * Workflow logs benchmark on Postgres: seeds a throwaway database with 100,000 runs of 100 sites
 * (bulk-inserted rows of the embedded engine's `workflow_runs`), then times the real route
 * handler of GET /api/logs/workflows in process — key check, tenant check, query, serialization —
 * for first pages, following pages (pageToken) and filters, and prints p50/p95 of server time.
 * The database is dropped at the end.
 *
 *   npx tsx bench/workflow-logs.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ITERATIONS=300 npx tsx bench/workflow-logs.ts
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GET as logsRoute } from '@/app/api/logs/workflows/route';
import { openMigratedDatabase, useDatabase } from '@/lib/db/client';
import { createKey } from '@/lib/keys/repo';
import { admin, adminSql, databaseUrl, insertBenchUser } from './admin';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const RUNS = Number(process.env.BENCH_RUNS ?? 100_000);
const SITES = Number(process.env.BENCH_SITES ?? 100);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 300);
const WARMUP = 30;
const TYPES = ['leadGenerationWorkflow', 'dailyStandUpWorkflow', 'webhookWorkflow', 'analyzeSiteWorkflow', 'customerSupportMessageWorkflow'];
const STATUSES = ['COMPLETED', 'COMPLETED', 'COMPLETED', 'FAILED', 'RUNNING', 'CANCELLED', 'TIMED_OUT'];

async function seed(url: string): Promise<{ userId: string; siteIds: string[] }> {
  return admin(url, async (client) => {
    const user = await insertBenchUser(client);
    const { rows: sites } = await client.query(
      `insert into sites (owner_id, name) select $1, 'Site ' || i from generate_series(1, $2::int) i returning id`,
      [user.id, SITES],
    );
    const siteIds = sites.map((s) => s.id as string);
    await client.query(
      `insert into workflow_runs (site_id, workflow_id, type, status, input, result, failure, start_time, close_time)
       select s.ids[1 + i % ${SITES}],
         'bench-' || s.ids[1 + i % ${SITES}] || '-' || i,
         (${`array[${TYPES.map((t) => `'${t}'`).join(',')}]`})[1 + (i / ${SITES}) % ${TYPES.length}],
         st.v,
         jsonb_build_object('site_id', s.ids[1 + i % ${SITES}], 'n', i),
         case when st.v = 'COMPLETED' then jsonb_build_object('ok', true, 'n', i) end,
         case when st.v = 'FAILED' then jsonb_build_object('message', 'MODEL_NOT_CONFIGURED: set LLM_BASE_URL', 'cause', jsonb_build_object('message', 'x', 'source', 'activity:generateText', 'stackTrace', '')) end,
         date_trunc('milliseconds', now() - make_interval(secs => i * 13)),
         case when st.v <> 'RUNNING' then date_trunc('milliseconds', now() - make_interval(secs => i * 13 - 2)) end
       from generate_series(1, $1::int) i
       cross join (select $2::uuid[] as ids) s
       cross join lateral (select (${`array[${STATUSES.map((t) => `'${t}'`).join(',')}]`})[1 + (i * 7) % ${STATUSES.length}] as v) st`,
      [RUNS, siteIds],
    );
    await client.query('analyze workflow_runs');
    return { userId: user.id, siteIds };
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function main() {
  const name = `sgp_bench_${randomBytes(5).toString('hex')}`;
  await adminSql(ADMIN_URL, `create database ${name}`);
  const url = databaseUrl(ADMIN_URL, name);
  const database = await openMigratedDatabase({ kind: 'postgres', url, poolMax: 4 });
  try {
    useDatabase(database);
    const t0 = performance.now();
    const { userId, siteIds } = await seed(url);
    console.log(`seeded ${RUNS} runs over ${SITES} sites in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const keys = await Promise.all(
      siteIds.map((siteId) => createKey(siteId, userId, { name: 'bench', scopes: ['read'], expirationDays: 30, prefix: 'key', site_id: siteId })),
    );

    const get = async (i: number, query: Record<string, string>) => {
      const site = i % SITES;
      const u = new URL('http://localhost/api/logs/workflows');
      for (const [k, v] of Object.entries({ site_id: siteIds[site], ...query })) u.searchParams.set(k, v);
      const started = performance.now();
      const res = await logsRoute(new Request(u, { headers: { 'x-api-key': keys[site].apiKey } }), { params: Promise.resolve({}) });
      const body = await res.json();
      const elapsed = performance.now() - started;
      if (res.status !== 200) throw new Error(`logs → ${res.status} ${JSON.stringify(body)}`);
      return { elapsed, body };
    };

    const cases: [string, (i: number) => Promise<number>][] = [
      ['first page (limit 20)', async (i) => (await get(i, {})).elapsed],
      ['first page (limit 100)', async (i) => (await get(i, { limit: '100' })).elapsed],
      [
        'page 3 via pageToken',
        async (i) => {
          const one = await get(i, {});
          const two = await get(i, { pageToken: one.body.pagination.nextPageToken });
          return (await get(i, { pageToken: two.body.pagination.nextPageToken })).elapsed;
        },
      ],
      ['status=FAILED', async (i) => (await get(i, { status: 'FAILED' })).elapsed],
      ['type + from', async (i) => (await get(i, { type: 'webhookWorkflow', from: new Date(Date.now() - 86_400_000 * 30).toISOString() })).elapsed],
    ];
    const all: number[] = [];
    console.log(`${'query'.padEnd(26)}    p50 ms    p95 ms`);
    for (const [label, run] of cases) {
      const times: number[] = [];
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        const elapsed = await run(i);
        if (i >= WARMUP) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      console.log(`${label.padEnd(26)} ${percentile(times, 50).toFixed(2).padStart(7)}   ${percentile(times, 95).toFixed(2).padStart(7)}`);
    }
    all.sort((a, b) => a - b);
    console.log(`workflow-logs all pages (${all.length} calls): p50 ${percentile(all, 50).toFixed(2)} ms, p95 ${percentile(all, 95).toFixed(2)} ms`);
  } finally {
    await database.close();
    await adminSql(ADMIN_URL, `drop database if exists ${name} with (force)`);
  }
}

main().then(
  // Key-usage records are buffered on a timer; the figures are printed, so stop here.
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
