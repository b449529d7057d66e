/**
 * Retention prune at scale, on Postgres: seeds a throwaway database with one site holding
 * BENCH_EVENTS events (default 10,000,000; 5 per session, 2 sessions per visitor) all past the
 * site's keeping period (`tracking.data_retention_days` 30, events 31–400 days old), then times
 * ingestion — the real POST /api/visitors/track handler in process, BENCH_CONCURRENCY callers
 * (default 8) into live sessions of the same site — in alternating rounds: idle, and while the
 * background prune (`pruneVisitorData`, the `retention` schedule's body) runs back to back. Prints
 * the track route's p50/p99/max per phase and the ratio of p99 during the prune to idle, the
 * prune's rows per second and its slowest batch statement. The database is dropped at the end.
 *
 *   npx tsx bench/retention-prune.ts
 *   BENCH_EVENTS=1000000 BENCH_ROUND_SECONDS=10 npx tsx bench/retention-prune.ts
 *
 * Seeding writes the rows with generate_series in chunks, the tables' secondary indexes dropped and
 * rebuilt after (as a restore does), then `vacuum analyze` (a live table's steady state).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';

process.env.RATE_LIMIT_BACKEND = 'none';
process.env.LOG_LEVEL ??= 'error';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 15);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CHUNK = 1_000_000;
const EVENTS_PER_SESSION = 5;
const DAY = 86_400_000;
const RETENTION_DAYS = 30;

const seconds = (t0: number) => ((performance.now() - t0) / 1000).toFixed(1);
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** The secondary indexes of `tables` (not the primary keys nor those behind constraints), as their definitions. */
async function secondaryIndexes(c: Client, tables: string[]): Promise<{ name: string; def: string }[]> {
  const r = await c.query<{ name: string; def: string }>(
    `select i.indexname as name, i.indexdef as def from pg_indexes i
      where i.schemaname = 'public' and i.tablename = any($1)
        and not exists (select 1 from pg_constraint k where k.conname = i.indexname)`,
    [tables],
  );
  return r.rows;
}

async function seed(c: Client, siteId: string, end: number): Promise<void> {
  const sessions = Math.ceil(EVENTS / EVENTS_PER_SESSION);
  const visitors = Math.ceil(sessions / 2);
  // Spread over days 31–400 before now: every row is past the 30 days the site keeps.
  const newest = end - (RETENTION_DAYS + 1) * DAY;
  const span = 370 * DAY;
  const indexes = await secondaryIndexes(c, ['visitors', 'visitor_sessions', 'session_events']);
  for (const { name } of indexes) await c.query(`drop index ${name}`);
  await c.query('set session_replication_role = replica');
  await c.query(
    `insert into visitors (id, site_id, fingerprint, first_seen_at, last_seen_at)
     select md5($1 || 'v' || v)::uuid, $1::uuid, 'fp' || v, $2::bigint - $3::bigint, $2::bigint - ((v::bigint * 7919) % $3::bigint)
     from generate_series(0, $4::int - 1) v`,
    [siteId, newest, span, visitors],
  );
  for (let from = 0; from < sessions; from += CHUNK / EVENTS_PER_SESSION) {
    const to = Math.min(sessions, from + CHUNK / EVENTS_PER_SESSION) - 1;
    const t = `$2::bigint - ((s::bigint * 104729) % $3::bigint)`;
    await c.query(
      `insert into visitor_sessions (id, site_id, visitor_id, status, url, created_at, started_at, last_activity_at, updated_at, expires_at,
         ended_at, page_views, event_count)
       select md5($1 || 's' || s)::uuid, $1::uuid, md5($1 || 'v' || (s % $6::int))::uuid, 'expired', 'https://bench.example.com/',
         ${t}, ${t}, ${t} + 180000, ${t} + 180000, ${t} + 1980000, ${t} + 180000, ${EVENTS_PER_SESSION}, ${EVENTS_PER_SESSION}
       from generate_series($4::int, $5::int) s`,
      [siteId, newest, span, from, to, visitors],
    );
    await c.query(
      `insert into session_events (id, site_id, session_id, visitor_id, event_type, url, "timestamp", received_at)
       select md5($1 || 'e' || s || '.' || k)::uuid, $1::uuid, md5($1 || 's' || s)::uuid, md5($1 || 'v' || (s % $6::int))::uuid, 'pageview',
         'https://bench.example.com/p/' || (k * 31 + s) % 300, ${t} + (k - 1) * 45000, ${t} + (k - 1) * 45000
       from generate_series($4::int, $5::int) s cross join generate_series(1, ${EVENTS_PER_SESSION}) k`,
      [siteId, newest, span, from, to, visitors],
    );
    process.stdout.write(`\r  seeded ${Math.min(EVENTS, (to + 1) * EVENTS_PER_SESSION).toLocaleString('en-US')} events`);
  }
  process.stdout.write('\n');
  await c.query('set session_replication_role = origin');
  await c.query('set maintenance_work_mem = "256MB"');
  for (const { def } of indexes) await c.query(def);
  await c.query('vacuum analyze visitors, visitor_sessions, session_events');
}

async function main() {
  const name = `sgp_bench_prune_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const { openMigratedDatabase, useDatabase } = await import('@/lib/db/client');
  const database = await openMigratedDatabase({ kind: 'postgres', url: url.toString(), poolMax: CONCURRENCY + 4 });
  const seeder = new Client({ connectionString: url.toString() });
  try {
    await useDatabase(database);
    const { POST: track } = await import('@/app/api/visitors/track/route');
    const { POST: startSession } = await import('@/app/api/visitors/session/route');
    const { createKey } = await import('@/lib/keys/repo');
    const { createKeyBodySchema } = await import('@/lib/keys/schema');
    const { pruneVisitorData } = await import('@/lib/worker/retention');
    const { updateSettings } = await import('@/lib/settings/service');

    await seeder.connect();
    const [{ id: userId }] = (await seeder.query(`insert into users (email, password_hash) values ('bench@example.com', 'x') returning id`)).rows;
    const [{ id: siteId }] = (
      await seeder.query(`insert into sites (owner_id, name, domain) values ($1, 'Bench', 'bench.example.com') returning id`, [userId])
    ).rows;
    await updateSettings(siteId, { tracking: { data_retention_days: RETENTION_DAYS } });
    const { apiKey } = await createKey(siteId, userId, createKeyBodySchema.parse({ name: 'bench', scopes: ['read', 'write'], site_id: siteId }));
    const t0 = performance.now();
    await seed(seeder, siteId, Date.now());
    console.log(`seeded ${EVENTS.toLocaleString('en-US')} events past the keeping period in ${seconds(t0)} s`);

    const call = async (handler: (req: Request, ctx: unknown) => Promise<Response>, path: string, body: unknown) => {
      const res = await handler(
        new Request(`http://127.0.0.1${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-sa-api-key': apiKey, origin: 'https://bench.example.com' },
          body: JSON.stringify(body),
        }),
        { params: Promise.resolve({}) },
      );
      const json = (await res.json()) as { data?: { session_id: string } };
      if (res.status >= 300) throw new Error(`${path} → ${res.status} ${JSON.stringify(json)}`);
      return json.data;
    };
    // Live sessions of the same site; each takes at most 900 events here (the cap is 1,000).
    const sessions: string[] = [];
    const used = new Map<string, number>();
    const liveSession = async () => {
      const s = await call(startSession as never, '/api/visitors/session', {
        site_id: siteId,
        fingerprint: `live-${randomBytes(6).toString('hex')}`,
        url: 'https://bench.example.com/',
      });
      return s!.session_id;
    };
    for (let i = 0; i < CONCURRENCY * 4; i++) sessions.push(await liveSession());

    /** Ingestion for `ms`: CONCURRENCY callers, each tracking one event after another; answers each call's time. */
    const ingest = async (ms: number): Promise<number[]> => {
      const times: number[] = [];
      const until = performance.now() + ms;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async (_, worker) => {
          for (let n = 0; performance.now() < until; n++) {
            const slot = (worker + n * CONCURRENCY) % sessions.length;
            if ((used.get(sessions[slot]) ?? 0) >= 900) sessions[slot] = await liveSession();
            const session = sessions[slot];
            used.set(session, (used.get(session) ?? 0) + 1);
            const start = performance.now();
            await call(track as never, '/api/visitors/track', {
              site_id: siteId,
              session_id: session,
              event_type: 'pageview',
              url: `https://bench.example.com/p/${n % 50}`,
            });
            times.push(performance.now() - start);
          }
        }),
      );
      return times.sort((a, b) => a - b);
    };

    /** The prune run back to back until `stop`; answers the rows it deleted and its runs' times. */
    const pruneWhile = async (stop: { done: boolean }) => {
      let rows = 0;
      let runs = 0;
      const started = performance.now();
      while (!stop.done) {
        const r = await pruneVisitorData(new Date());
        rows += r.session_events + r.visitor_sessions + r.visitors;
        runs++;
        if (r.session_events + r.visitor_sessions + r.visitors === 0) break;
      }
      return { rows, runs, ms: performance.now() - started };
    };

    await ingest(3_000); // warm-up
    const idle: number[] = [];
    const during: number[] = [];
    let pruned = { rows: 0, ms: 0, runs: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      idle.push(...(await ingest(ROUND_SECONDS * 1000)));
      const stop = { done: false };
      const prune = pruneWhile(stop);
      during.push(...(await ingest(ROUND_SECONDS * 1000)));
      stop.done = true;
      const p = await prune;
      pruned = { rows: pruned.rows + p.rows, ms: pruned.ms + p.ms, runs: pruned.runs + p.runs };
    }
    idle.sort((a, b) => a - b);
    during.sort((a, b) => a - b);
    const line = (label: string, t: number[]) =>
      console.log(
        `${label.padEnd(26)} ${String(t.length).padStart(7)} calls  p50 ${percentile(t, 50).toFixed(1)} ms  p99 ${percentile(t, 99).toFixed(1)} ms  max ${t[t.length - 1].toFixed(1)} ms`,
      );
    console.log(`track route, ${CONCURRENCY} concurrent callers, ${ROUNDS} rounds of ${ROUND_SECONDS} s each:`);
    line('idle', idle);
    line('while the prune runs', during);
    console.log(`p99 ratio (prune / idle): ${(percentile(during, 99) / percentile(idle, 99)).toFixed(2)}`);
    const left = (
      await seeder.query<{ n: string }>(`select count(*) as n from session_events where site_id = $1 and received_at < $2`, [
        siteId,
        Date.now() - RETENTION_DAYS * DAY,
      ])
    ).rows[0].n;
    console.log(
      `prune: ${pruned.rows.toLocaleString('en-US')} rows in ${(pruned.ms / 1000).toFixed(1)} s of ${pruned.runs} runs (${Math.round(pruned.rows / (pruned.ms / 1000)).toLocaleString('en-US')} rows/s while ingestion ran); ${Number(left).toLocaleString('en-US')} old events left`,
    );
  } finally {
    await seeder.end().catch(() => undefined);
    await database.close().catch(() => undefined);
    await admin.query(`drop database if exists ${name} with (force)`).catch(() => undefined);
    await admin.end().catch(() => undefined);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
