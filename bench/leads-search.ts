/**
 * Leads search benchmark on Postgres: seeds a throwaway database with 100,000 leads for one
 * site (plus 20,000 for another), then times the real `listLeads` (the function behind
 * POST /api/agents/tools/leads/get) for a mix of searches, sorts and pages, and prints p50/p95
 * of server time per query and overall. The database is dropped at the end. A search term
 * shorter than 3 characters has no trigram, so it scans the site's leads: it is measured and
 * reported too, and the overall figures are printed with and without it. Sorted by name, email or
 * company, a search matching more than LEAD_SEARCH_SORT_CAP leads that does not fill its page
 * within the walk of its index is answered 400: its time is measured and `refused` printed.
 *
 *   npx tsx bench/leads-search.ts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres BENCH_ITERATIONS=200 npx tsx bench/leads-search.ts
 *
 * BENCH_LEADS sets the size (1,000,000 takes minutes to seed); BENCH_KEEP_DB=1 keeps the seeded
 * database and BENCH_REUSE_DB=<name> runs on such a database again (migrated, not seeded).
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { ApiError } from '@/lib/core/errors';
import { openMigratedDatabase, useDatabase } from '@/lib/db/client';
import { listLeads } from '@/lib/leads/repo';
import { listLeadsInputSchema } from '@/lib/leads/schema';
import { admin, adminSql, databaseUrl, insertBenchUser } from './admin';

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 200);
const WARMUP = 20;

const FIRST = [
  'james',
  'mary',
  'john',
  'patricia',
  'robert',
  'jennifer',
  'michael',
  'linda',
  'william',
  'elizabeth',
  'david',
  'barbara',
  'richard',
  'susan',
  'joseph',
  'jessica',
  'thomas',
  'sarah',
  'carlos',
  'lucia',
  'ahmed',
  'fatima',
  'wei',
  'yuki',
  'olga',
  'ivan',
  'pierre',
  'amelie',
  'hans',
  'greta',
];
const LAST = [
  'smith',
  'johnson',
  'williams',
  'brown',
  'jones',
  'garcia',
  'miller',
  'davis',
  'rodriguez',
  'martinez',
  'hernandez',
  'lopez',
  'gonzalez',
  'wilson',
  'anderson',
  'thomas',
  'taylor',
  'moore',
  'jackson',
  'martin',
  'lee',
  'perez',
  'thompson',
  'white',
  'harris',
  'sanchez',
  'clark',
  'ramirez',
  'lewis',
  'robinson',
  'walker',
  'young',
  'allen',
  'king',
  'wright',
  'scott',
  'torres',
  'nguyen',
  'hill',
  'flores',
];
const COMPANY_WORDS = [
  'acme',
  'globex',
  'initech',
  'umbrella',
  'hooli',
  'stark',
  'wayne',
  'wonka',
  'cyberdyne',
  'tyrell',
  'soylent',
  'massive',
  'aperture',
  'black mesa',
  'vandelay',
  'pied piper',
  'dunder',
  'prestige',
  'monarch',
  'oscorp',
];
const SUFFIX = ['inc', 'llc', 'gmbh', 'sa', 'ltd', 'labs', 'systems', 'group'];
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'proton.me', 'company.io'];

const sqlArray = (values: string[]) => `array[${values.map((v) => `'${v}'`).join(',')}]`;

async function seed(url: string): Promise<{ siteId: string }> {
  return admin(url, async (client) => {
    const user = await insertBenchUser(client);
    const { rows: sites } = await client.query(`insert into sites (owner_id, name) values ($1, 'Bench'), ($1, 'Neighbour') returning id`, [user.id]);
    const insert = (siteId: string, count: number, offset: number) =>
      client.query(
        `insert into leads (site_id, name, email, company, status, lead_score, created_at, updated_at)
         select $1,
           initcap(f.v) || ' ' || initcap(l.v),
           f.v || '.' || l.v || i || '@' || d.v,
           case when i % 10 = 0 then null else initcap(c.v) || ' ' || (i % 997) || ' ' || s.v end,
           (array['new','contacted','qualified','converted','lost'])[1 + i % 5],
           case when i % 7 = 0 then null else i % 101 end,
           now() - make_interval(secs => i * 37),
           now() - make_interval(secs => i * 11)
         from generate_series($2::int, $3::int) as i
         cross join lateral (select (${sqlArray(FIRST)})[1 + (i * 7) % ${FIRST.length}] as v) f
         cross join lateral (select (${sqlArray(LAST)})[1 + (i * 13) % ${LAST.length}] as v) l
         cross join lateral (select (${sqlArray(COMPANY_WORDS)})[1 + (i * 3) % ${COMPANY_WORDS.length}] as v) c
         cross join lateral (select (${sqlArray(SUFFIX)})[1 + i % ${SUFFIX.length}] as v) s
         cross join lateral (select (${sqlArray(DOMAINS)})[1 + (i * 11) % ${DOMAINS.length}] as v) d`,
        [siteId, offset + 1, offset + count],
      );
    // A bulk load goes through a large GIN pending list (fast), merged into the index once at the
    // end; the index then keeps the 64 kB list of migration 20261207140000_lead_gin_pending_list.sql.
    await client.query('alter index leads_search_text_trgm_idx set (fastupdate = on, gin_pending_list_limit = 65536)');
    await insert(sites[0].id, LEADS, 0);
    await insert(sites[1].id, Math.round(LEADS / 5), LEADS);
    await client.query(`select gin_clean_pending_list('leads_search_text_trgm_idx'::regclass)`);
    await client.query('alter index leads_search_text_trgm_idx set (gin_pending_list_limit = 64)');
    await client.query('vacuum analyze leads');
    return { siteId: sites[0].id };
  });
}

/** The site with the most leads of a seeded database (BENCH_REUSE_DB). */
async function largestSite(url: string): Promise<{ siteId: string }> {
  return admin(url, async (client) => {
    const {
      rows: [top],
    } = await client.query(`select site_id, count(*)::int as n from leads group by site_id order by n desc limit 1`);
    console.log(`reusing ${top.n} leads of the largest site`);
    return { siteId: top.site_id };
  });
}

const QUERIES: [string, Record<string, unknown>][] = [
  ['first page, newest first', {}],
  ['search last name "smith"', { search: 'smith' }],
  ['search full email', { search: 'olga.clark4242@yahoo' }],
  ['search company "globex 42"', { search: 'globex 42' }],
  ['search mixed case "WaYnE"', { search: 'WaYnE', sort_by: 'name', sort_order: 'asc' }],
  ['search "gmail" by name', { search: 'gmail', sort_by: 'name', sort_order: 'asc' }],
  ['search "stark 7" by company, desc', { search: 'stark 7', sort_by: 'company', sort_order: 'desc' }],
  ['search "johnson" by email', { search: 'johnson', sort_by: 'email', sort_order: 'asc' }],
  ['search with no match', { search: 'zzqqxx' }],
  ['search two letters "jo" (no trigram)', { search: 'jo' }],
  ['sort by name, page 20', { sort_by: 'name', sort_order: 'asc', offset: 1000 }],
  ['status filter, top score', { status: 'qualified', sort_by: 'lead_score', sort_order: 'desc' }],
  ['search + status + 500 rows', { search: 'garcia', status: 'new', limit: 500 }],
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms: number) => ms.toFixed(2).padStart(7);

async function main() {
  const reuse = process.env.BENCH_REUSE_DB;
  const name = reuse ?? `sgp_bench_${randomBytes(5).toString('hex')}`;
  if (!reuse) await adminSql(ADMIN_URL, `create database ${name}`);
  const url = databaseUrl(ADMIN_URL, name);
  const database = await openMigratedDatabase({ kind: 'postgres', url, poolMax: 4 });
  try {
    useDatabase(database);
    const started = performance.now();
    const { siteId } = reuse ? await largestSite(url) : await seed(url);
    if (!reuse)
      console.log(`seeded ${LEADS} leads (+${Math.round(LEADS / 5)} at another site) in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const all: number[] = [];
    const indexed: number[] = [];
    console.log(`${'query'.padEnd(34)}    p50 ms    p95 ms   matches`);
    for (const [label, body] of QUERIES) {
      const input = listLeadsInputSchema.parse({ site_id: siteId, ...body });
      const times: number[] = [];
      let total: number | string = 0;
      for (let i = 0; i < WARMUP + ITERATIONS; i++) {
        const t0 = performance.now();
        // A search too broad to sort by a searched field is answered 400 (listLeads): timed too.
        const result = await listLeads(siteId, input).catch((error: unknown) => {
          if (error instanceof ApiError && error.code === 'INVALID_REQUEST') return undefined;
          throw error;
        });
        const elapsed = performance.now() - t0;
        total = result ? result.count.total : 'refused';
        if (i >= WARMUP) times.push(elapsed);
      }
      times.sort((a, b) => a - b);
      all.push(...times);
      if (!label.includes('no trigram')) indexed.push(...times);
      console.log(`${label.padEnd(34)} ${fmt(percentile(times, 50))}   ${fmt(percentile(times, 95))}   ${String(total).padStart(7)}`);
    }
    for (const [label, times] of [
      ['all queries', all],
      ['without the 2-letter search', indexed],
    ] as const) {
      times.sort((a, b) => a - b);
      console.log(
        `leads-search ${label} (${times.length} calls): p50 ${percentile(times, 50).toFixed(2)} ms, p95 ${percentile(times, 95).toFixed(2)} ms`,
      );
    }
  } finally {
    await database.close();
    if (process.env.BENCH_KEEP_DB === '1' || reuse) console.log(`kept database ${name}; drop it when done`);
    else await adminSql(ADMIN_URL, `drop database if exists ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
