/**
 * Analytics reads at 1M events per site (BENCH_EVENTS; 10M is the target size): seeds a throwaway
 * database (Postgres by default, or PGlite with BENCH_DB=pglite) with one site holding BENCH_EVENTS
 * events in sessions of 4.4 events on average over the last 90 days, up to now, plus a neighbour
 * site with a tenth of that, written with generate_series in a few statements; then a few hundred
 * visits of the last 30 minutes, the latest still going on (on every run). Then it times the
 * service functions the console and the API call — overview, breakdowns and funnels over the last
 * 30 days and the whole 90, filtered or not, and realtime — and prints the first read and
 * min/p50/p95/max per query, and its p50 as a ratio to a trivial `select 1` through the same pool,
 * measured interleaved (the machine is shared, so the ratio is the steadier figure).
 *
 * Finished days, and the part of today that can no longer change, are rolled up by the background
 * job (`rollUpSite`, run here once after seeding, its time printed, then the new rows analyzed as
 * autovacuum does soon after); before that, on a fresh seed, one read of the 90 days answers from
 * the raw rows alone (printed as `before the rollups`).
 *
 * Seeding 10M events takes tens of minutes: BENCH_KEEP_DB=1 keeps the seeded database (or PGlite
 * data directory; its name is printed), BENCH_REUSE_DB=<database name or data directory> runs on
 * it again (migrated and rolled up, not seeded), BENCH_SEED_ONLY=1 stops after seeding.
 * BENCH_QUERIES=<regular expression> times only the reads whose label matches.
 *
 *   npm run bench:analytics
 *   BENCH_EVENTS=10000000 BENCH_KEEP_DB=1 BENCH_SEED_ONLY=1 npm run bench:analytics
 *   BENCH_REUSE_DB=sgp_bench_0123456789 BENCH_ITERATIONS=30 npm run bench:analytics
 *   BENCH_DB=pglite BENCH_ITERATIONS=20 npm run bench:analytics
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { addDays, dateIn } from '@/lib/analytics/calendar';
import { createGoal, findGoalByName } from '@/lib/analytics/goals';
import { rollUpSite } from '@/lib/analytics/rollups';
import { breakdown, funnel, overview, realtime } from '@/lib/analytics/service';
import { openMigratedDatabase, useDatabase, type Database } from '@/lib/db/client';
import { rows } from '@/lib/db/raw';
import { updateSettings } from '@/lib/settings/service';
import { admin } from './admin';

const KIND = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres';
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? (KIND === 'pglite' ? 20 : 50));
const WARMUP = 3;
const SPAN_DAYS = 90;
const DAY = 86_400_000;

/** Events per session cycle through these (mean 4.4): 40 % one-page visits. */
const EVENTS_PER_SESSION = [1, 1, 1, 1, 2, 3, 4, 6, 8, 14];
const MEAN_EVENTS = EVENTS_PER_SESSION.reduce((a, b) => a + b, 0) / EVENTS_PER_SESSION.length;
const PATHS = ['/', '/pricing', '/blog/launch', '/blog/guide', '/features', '/docs', '/about', '/signup'];
const REFERRERS = [
  'https://www.google.com/search',
  'https://news.ycombinator.com/item',
  'https://t.co/x',
  'https://www.facebook.com/',
  'https://duckduckgo.com/',
  'https://www.bing.com/search',
  'https://www.reddit.com/r/x',
  'https://partner.example.org/list',
];
const SOURCES = ['newsletter', 'google', 'twitter', 'facebook', 'partner'];
const COUNTRIES = ['US', 'ES', 'DE', 'FR', 'GB', 'IN', 'BR', 'JP', 'MX', 'IT'];
const text = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

/**
 * One site's visits in a few statements: a plan of sessions (each with its visitor, start, event
 * count and previous session), the visitors, the sessions, their events, the leads. Visitors and
 * sessions are numbered so the events need no lookups. Rates of a shop: 40 % of the sessions see
 * one page, 6 % add to the cart, 2.5 % check out, 1 % buy (a conversion); 30 % come with UTM
 * values, 40 % with a referrer; a session is a bot's one time in 50.
 */
function seedStatements(siteId: string, events: number, end: number): string[] {
  const sessions = Math.round(events / MEAN_EVENTS);
  const visitors = Math.round(sessions * 0.53);
  const start = end - SPAN_DAYS * DAY;
  const plan = `plan_${siteId.slice(0, 8)}`;
  return [
    `create temp table ${plan} as
     select *, lag(t0) over (partition by visitor_id order by t0, i) as prev_t0
     from (
       select i,
         (array[${EVENTS_PER_SESSION.join(',')}])[1 + (i * 2654435761::bigint % ${EVENTS_PER_SESSION.length})::int] as n,
         ${start}::bigint + (i::bigint * ${SPAN_DAYS * DAY}) / ${sessions} as t0,
         md5('${siteId}v' || ((i::bigint * 7919) % ${visitors}))::uuid as visitor_id,
         md5('${siteId}s' || i)::uuid as id
       from generate_series(1, ${sessions}) i
     ) p`,
    `insert into visitors (id, site_id, fingerprint, first_seen_at, last_seen_at)
     select md5('${siteId}v' || v)::uuid, '${siteId}', 'fp' || v, ${start}, ${end} from generate_series(0, ${visitors - 1}) v`,
    `insert into visitor_sessions (id, site_id, visitor_id, status, url, current_url, referrer, utm_source, utm_medium, utm_campaign,
       created_at, started_at, last_activity_at, updated_at, expires_at, ended_at, duration, page_views, conversions, exit_url,
       exit_type, device, location, is_bot, event_count, previous_session_at)
     select p.id, '${siteId}', p.visitor_id, 'expired',
       'https://bench.example.com' || (${text(PATHS)})[1 + i % ${PATHS.length}] || case when i % 10 < 3 then '?utm_source=x' else '' end,
       'https://bench.example.com/p/' || ((i * 31 + p.n * 17) % 300),
       case when i % 5 < 2 then (${text(REFERRERS)})[1 + i % ${REFERRERS.length}] end,
       case when i % 10 < 3 then (${text(SOURCES)})[1 + i % ${SOURCES.length}] end,
       case when i % 10 < 3 then (array['email','cpc','social'])[1 + i % 3] end,
       case when i % 10 < 3 then 'campaign-' || (i % 12) end,
       p.t0, p.t0, p.t0 + (p.n - 1) * 45000, p.t0 + (p.n - 1) * 45000, p.t0 + (p.n - 1) * 45000 + 1800000, p.t0 + (p.n - 1) * 45000,
       (p.n - 1) * 45000,
       p.n - (case when p.n >= 4 and i % 40 = 0 then 1 else 0 end) - (case when p.n >= 3 and i % 20 = 0 then 1 else 0 end)
           - (case when p.n >= 2 and i % 10 = 0 and not (p.n = 3 and i % 20 = 0) then 1 else 0 end),
       case when p.n >= 4 and i % 40 = 0 then 1 else 0 end,
       'https://bench.example.com/p/' || ((i * 31 + p.n * 17) % 300),
       case when p.n = 1 then 'bounce' else 'timeout' end,
       jsonb_build_object('type', (array['desktop','mobile','tablet'])[1 + i % 3]),
       jsonb_build_object('country', (${text(COUNTRIES)})[1 + (i * 7) % ${COUNTRIES.length}]),
       i % 50 = 0, p.n, p.prev_t0
     from ${plan} p`,
    `insert into session_events (id, site_id, session_id, visitor_id, event_type, event_name, url, "timestamp", received_at)
     select md5('${siteId}e' || p.i || '.' || k)::uuid, '${siteId}', p.id, p.visitor_id,
       case when p.n >= 4 and k = p.n and p.i % 40 = 0 then 'conversion'
            when p.n >= 3 and k = p.n - 1 and p.i % 20 = 0 then 'custom'
            when p.n >= 2 and k = 2 and p.i % 10 = 0 then 'custom' else 'pageview' end,
       case when p.n >= 4 and k = p.n and p.i % 40 = 0 then 'purchase'
            when p.n >= 3 and k = p.n - 1 and p.i % 20 = 0 then 'checkout'
            when p.n >= 2 and k = 2 and p.i % 10 = 0 then 'add_to_cart' end,
       'https://bench.example.com' || case when k = 1 then (${text(PATHS)})[1 + p.i % ${PATHS.length}] else '/p/' || ((p.i * 31 + k * 17) % 300) end,
       p.t0 + (k - 1) * 45000, p.t0 + (k - 1) * 45000
     from ${plan} p cross join lateral generate_series(1, p.n) k`,
    `insert into leads (site_id, name, email, created_at, updated_at)
     select '${siteId}', 'Lead ' || l, 'lead' || l || '@example.com', to_timestamp((${start}::bigint + l::bigint * ${SPAN_DAYS * DAY} / ${Math.round(sessions / 40)}) / 1000.0), now()
     from generate_series(1, ${Math.round(sessions / 40)}) l`,
    `drop table ${plan}`,
  ];
}

async function seed(database: Database, end: number): Promise<{ siteId: string; events: number }> {
  const [{ id: userId }] = await database.sql.query<{ id: string }>(
    `insert into users (email, password_hash) values ('bench@example.com', 'x') returning id`,
  );
  const sites = await database.sql.query<{ id: string }>(`insert into sites (owner_id, name) values ($1, 'Bench'), ($1, 'Neighbour') returning id`, [
    userId,
  ]);
  await database.session(async (runner) => {
    // Bulk load: the rows are consistent by construction, so foreign-key triggers are skipped.
    await runner.exec('set session_replication_role = replica');
    for (const [site, events] of [
      [sites[0].id, EVENTS],
      [sites[1].id, Math.round(EVENTS / 10)],
    ] as const) {
      for (const statement of seedStatements(site, events, end)) await runner.exec(statement);
    }
    await runner.exec('set session_replication_role = origin');
    // The steady state of a live database: autovacuum has set the visibility map (index-only scans) and the statistics.
    await runner.exec('vacuum analyze');
  });
  const [{ n }] = await database.sql.query<{ n: number }>(`select count(*)::int as n from session_events where site_id = $1`, [sites[0].id]);
  return { siteId: sites[0].id, events: n };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const ms = (v: number) => v.toFixed(1).padStart(8);

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

/**
 * Visits going on now, as on a live site at this rate (about 17 sessions a minute): sessions started
 * over the last 30 minutes, the latest still active, with their page views. Written on every run,
 * so realtime has visitors and the open day has live sessions (the kept part of today ends at the
 * oldest of them). Each run's are new rows, a few hundred.
 */
async function liveTraffic(database: Database, siteId: string, now: number): Promise<void> {
  const sessions = Math.max(20, Math.round((EVENTS / MEAN_EVENTS / (SPAN_DAYS * 1440)) * 30));
  const tag = `${siteId}live${now}`;
  await database.sql.query(`
    with plan as (
      select i, md5('${tag}s' || i)::uuid as id, md5('${tag}v' || i)::uuid as visitor_id,
        ${now}::bigint - (i::bigint * 1800000) / ${sessions} as t0, 1 + i % 5 as n
      from generate_series(1, ${sessions}) i
    ),
    v as (
      insert into visitors (id, site_id, fingerprint, first_seen_at, last_seen_at)
      select visitor_id, '${siteId}', 'live' || i || '-' || ${now}, t0, t0 from plan
    ),
    s as (
      insert into visitor_sessions (id, site_id, visitor_id, status, url, current_url, referrer, utm_source, created_at, started_at,
        last_activity_at, updated_at, expires_at, page_views, device, location, event_count)
      select id, '${siteId}', visitor_id, 'active', 'https://bench.example.com' || (${text(PATHS)})[1 + i % ${PATHS.length}],
        'https://bench.example.com/p/' || (i % 300), case when i % 5 < 2 then (${text(REFERRERS)})[1 + i % ${REFERRERS.length}] end,
        case when i % 10 < 3 then (${text(SOURCES)})[1 + i % ${SOURCES.length}] end,
        t0, t0, least(t0 + (n - 1) * 45000, ${now}), least(t0 + (n - 1) * 45000, ${now}), least(t0 + (n - 1) * 45000, ${now}) + 1800000,
        n, jsonb_build_object('type', 'desktop'), jsonb_build_object('country', (${text(COUNTRIES)})[1 + i % ${COUNTRIES.length}]), n
      from plan
    )
    insert into session_events (id, site_id, session_id, visitor_id, event_type, url, "timestamp", received_at)
    select md5('${tag}e' || i || '.' || k)::uuid, '${siteId}', id, visitor_id, 'pageview', 'https://bench.example.com/p/' || ((i + k) % 300),
      least(t0 + (k - 1) * 45000, ${now}), least(t0 + (k - 1) * 45000, ${now})
    from plan cross join lateral generate_series(1, n) k`);
  // Sessions of earlier runs are over by now (each visitor has one active session at most).
  await database.sql.query(
    `update visitor_sessions set status = 'expired' where site_id = $1 and status = 'active' and created_at < $2 and expires_at <= $3`,
    [siteId, now - 1_800_000, now],
  );
}

/** The site seeded by an earlier run of a kept database, if any. */
async function seeded(database: Database): Promise<{ siteId: string; events: number } | undefined> {
  const [site] = await database.sql.query<{ id: string }>(`select id from sites where name = 'Bench' limit 1`);
  if (!site) return undefined;
  const [{ n }] = await database.sql.query<{ n: number }>(`select count(*)::int as n from session_events where site_id = $1`, [site.id]);
  return { siteId: site.id, events: n };
}

async function main() {
  // BENCH_REUSE_DB names a kept Postgres database or PGlite data directory.
  const reuse = process.env.BENCH_REUSE_DB;
  const keep = process.env.BENCH_KEEP_DB === '1' || reuse !== undefined;
  const name = (KIND === 'postgres' && reuse) || `sgp_bench_${randomBytes(5).toString('hex')}`;
  let dataDir: string | undefined;
  let database: Database;
  if (KIND === 'postgres') {
    if (!reuse) await admin(ADMIN_URL, (c) => c.query(`create database ${name}`));
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    database = await openMigratedDatabase({ kind: 'postgres', url: url.toString(), poolMax: 4 });
  } else {
    dataDir = reuse ?? mkdtempSync(path.join(os.tmpdir(), 'sgp-bench-analytics-'));
    database = await openMigratedDatabase({ kind: 'pglite', dataDir, sharedBuffersMb: 128 });
  }
  try {
    useDatabase(database);
    const now = Date.now();
    const seeding = performance.now();
    const earlier = await seeded(database);
    const { siteId, events } = earlier ?? (await seed(database, now));
    console.log(
      earlier
        ? `${KIND}: reusing ${events} events for one site seeded earlier`
        : `${KIND}: seeded ${events} events for one site (+${Math.round(EVENTS / 10)} at another) in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    if (process.env.BENCH_SEED_ONLY === '1') return;
    await updateSettings(siteId, { business_hours: { timezone: 'Europe/Madrid' } });
    if (!(await findGoalByName(siteId, 'Purchase'))) await createGoal(siteId, { name: 'Purchase', type: 'conversion', match: 'purchase' });
    await liveTraffic(database, siteId, now);

    const today = dateIn(now, 'UTC');
    const last30 = { from: addDays(today, -29), to: today };
    const all = { from: addDays(today, -(SPAN_DAYS - 1)), to: today };
    const queries: [string, () => Promise<unknown>][] = [
      ['overview, 30 days', () => overview(siteId, last30)],
      ['overview, 90 days', () => overview(siteId, all)],
      ['overview, 90 days, site time zone', () => overview(siteId, { ...all, timezone: 'site' })],
      ['top pages, 90 days', () => breakdown(siteId, 'pages', all)],
      ['entry pages, 90 days', () => breakdown(siteId, 'entry_pages', all)],
      ['referrers, 90 days', () => breakdown(siteId, 'referrers', all)],
      ['utm sources, 90 days', () => breakdown(siteId, 'utm_sources', all)],
      ['utm campaigns, 30 days', () => breakdown(siteId, 'utm_campaigns', last30)],
      ['countries, 90 days', () => breakdown(siteId, 'countries', all)],
      ['devices, 30 days', () => breakdown(siteId, 'devices', last30)],
      ['funnel of 3 steps, 30 days', () => funnel(siteId, { ...last30, steps: ['add_to_cart', 'checkout', 'purchase'] })],
      ['funnel of 3 steps, 90 days', () => funnel(siteId, { ...all, steps: ['add_to_cart', 'checkout', 'purchase'] })],
      // Filtered reads sum the session facts (and the raw rows of the sessions since the job's pass).
      ['overview, 30 days, country:DE', () => overview(siteId, { ...last30, filter: ['country:DE'] })],
      ['overview, 90 days, utm_source:newsletter', () => overview(siteId, { ...all, filter: ['utm_source:newsletter'] })],
      ['overview, 30 days, goal:Purchase', () => overview(siteId, { ...last30, filter: ['goal:Purchase'] })],
      ['overview, 30 days, country!:US', () => overview(siteId, { ...last30, filter: ['country!:US'] })],
      ['overview, 30 days, page:/pricing + country!:US', () => overview(siteId, { ...last30, filter: ['page:/pricing', 'country!:US'] })],
      ['utm sources, 90 days, country:DE', () => breakdown(siteId, 'utm_sources', { ...all, filter: ['country:DE'] })],
      [
        'top pages, 30 days, referrer:news.ycombinator.com',
        () => breakdown(siteId, 'pages', { ...last30, filter: ['referrer:news.ycombinator.com'] }),
      ],
      ['overview, 30 days, compare previous', () => overview(siteId, { ...last30, compare: 'previous' })],
      ['realtime', () => realtime(siteId)],
    ];
    // BENCH_QUERIES: a regular expression over the labels (e.g. '^[^:]*$', the unfiltered reads).
    const only = process.env.BENCH_QUERIES ? new RegExp(process.env.BENCH_QUERIES) : undefined;
    if (only) queries.splice(0, queries.length, ...queries.filter(([label]) => only.test(label)));
    const baseline = () => rows(sql`select 1`);

    // Before the job ran (a fresh seed): a read of the whole period computes every day from the raw rows.
    if (!earlier) {
      const raw = await time(() => overview(siteId, all));
      console.log(`overview, 90 days, before the rollups (raw rows only): ${raw.toFixed(0)} ms`);
    }
    // The background job's work: every finished day, in UTC and in the site's time zone.
    const rolling = performance.now();
    const rolled = await rollUpSite(siteId, now);
    console.log(`background rollup: ${rolled} days (UTC and the site's time zone) in ${((performance.now() - rolling) / 1000).toFixed(1)} s`);
    // What autovacuum does within a minute of the rollups: statistics for the new rows.
    await rows(sql`analyze analytics_facts`);
    await rows(sql`analyze analytics_days`);
    await rows(sql`analyze analytics_open_facts`);
    // The session facts are new rows (inserts): autovacuum sets their visibility map too (index-only scans).
    await rows(sql`vacuum analyze analytics_sessions`);
    await rows(sql`vacuum analyze analytics_session_pages`);
    await rows(sql`vacuum analyze analytics_dimension_slots`);
    const [slots] = await rows<{ n: number; size: string }>(
      sql`select count(*)::int as n, pg_size_pretty(pg_total_relation_size('analytics_dimension_slots')) as size from analytics_dimension_slots`,
    );
    console.log(`slot sums by dimension value: ${slots.n} rows, ${slots.size} with their index`);
    const first = new Map<string, number>();
    for (const [label, run] of queries) first.set(label, await time(run));

    console.log(`${'query'.padEnd(36)} first read    min ms    p50 ms    p95 ms    max ms  p50/select 1  visitors read`);
    const everything: number[] = [];
    for (const [label, run] of queries) {
      // The share of the visitors a sampled read counted (lib/analytics/samples.ts).
      let share = 1;
      for (let i = 0; i < WARMUP; i++) share = ((await run()) as { sampled?: { fraction: number } }).sampled?.fraction ?? 1;
      const times: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < ITERATIONS; i++) {
        base.push(await time(baseline));
        times.push(await time(run));
      }
      times.sort((a, b) => a - b);
      base.sort((a, b) => a - b);
      everything.push(...times);
      const ratio = percentile(times, 50) / percentile(base, 50);
      console.log(
        `${label.padEnd(36)} ${ms(first.get(label)!)}  ${ms(times[0])}  ${ms(percentile(times, 50))}  ${ms(percentile(times, 95))}  ${ms(times[times.length - 1])}  ${ratio.toFixed(0).padStart(8)}×  ${(share === 1 ? 'all' : `1/${Math.round(1 / share)}`).padStart(13)}`,
      );
    }
    everything.sort((a, b) => a - b);
    console.log(
      `analytics ${KIND} (${everything.length} reads): p50 ${percentile(everything, 50).toFixed(1)} ms, p95 ${percentile(everything, 95).toFixed(1)} ms, max ${everything[everything.length - 1].toFixed(1)} ms`,
    );
  } finally {
    await database.close();
    if (keep)
      console.log(
        `kept ${KIND === 'postgres' ? `database ${name}` : `data directory ${dataDir}`}; BENCH_REUSE_DB=${KIND === 'postgres' ? name : dataDir} runs on it again (remove it when done)`,
      );
    else if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    else await admin(ADMIN_URL, (c) => c.query(`drop database if exists ${name} with (force)`));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
