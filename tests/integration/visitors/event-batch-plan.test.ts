import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { maintainEmbeddedTables } from '@/lib/db/maintenance';
import { rows } from '@/lib/db/raw';
import { eventBatchSql } from '@/lib/visitors/events-repo';
import { createTenant } from '@/tests/helpers/harness';

/**
 * The embedded database keeps the event batch planned once (a generic plan, made on its sixth call
 * and kept until the next `analyze` of a table it reads). That plan must read and renew the batch's
 * sessions through visitor_sessions' primary key whatever the table held when it was made: a scan,
 * or an index of every live session, kept while the table grows, costs every later batch the whole
 * table. On Postgres the driver's statements are planned per call; this is the embedded database's.
 */
const onPglite = process.env.TEST_DB !== 'postgres';

/** The indexes (or `Seq Scan`) through which the statement's generic plan reads visitor_sessions. */
async function sessionAccess(): Promise<string[]> {
  const siteId = '00000000-0000-4000-8000-000000000001';
  const event = (sessionId: string) => ({
    eventId: crypto.randomUUID(),
    siteId,
    sessionId,
    visitorId: null,
    eventType: 'click',
    eventName: null,
    url: null,
    timestamp: 0,
    properties: null,
    necessary: false,
    receivedAt: 0,
  });
  const { sql: text } = new PgDialect().sqlToQuery(eventBatchSql([event(crypto.randomUUID()), event(crypto.randomUUID())]));
  const plan = (await (await database()).executeSql(`explain (generic_plan) ${text}`)).rows.map((r) => (r as Record<string, string>)['QUERY PLAN']);
  return plan.flatMap((line) => {
    if (/Seq Scan on visitor_sessions\b/.test(line)) return ['Seq Scan'];
    const index = /Index (?:Only )?Scan using (\w+) on visitor_sessions\b/.exec(line) ?? /Bitmap Index Scan on (visitor_sessions\w*)/.exec(line);
    return index ? [index[1]] : [];
  });
}

/** Sessions of one visitor each, written straight into the tables (thousands, quickly). */
async function addSessions(siteId: string, count: number): Promise<void> {
  const now = Date.now();
  await rows(sql`
    with v as (
      insert into visitors (site_id, fingerprint, first_seen_at, last_seen_at)
      select ${siteId}, 'plan-' || gen_random_uuid(), ${now}::bigint, ${now}::bigint from generate_series(1, ${count})
      returning id
    )
    insert into visitor_sessions (site_id, visitor_id, url, created_at, started_at, last_activity_at, updated_at, expires_at)
    select ${siteId}, v.id, 'https://plan.example.com/', ${now}::bigint, ${now}::bigint, ${now}::bigint, ${now}::bigint, ${now + 1_800_000}::bigint
    from v`);
}

/** The maintenance, once the tables' change counters reached the shared statistics (a forced flush, at the next statement's end). */
async function maintain(): Promise<void> {
  await rows(sql`select pg_stat_force_next_flush()`);
  await rows(sql`select 1`);
  await maintainEmbeddedTables();
}

const sessionStatistics = async () =>
  (await rows<{ tuples: number }>(sql`select reltuples::float8 as tuples from pg_class where relname = 'visitor_sessions'`))[0].tuples;

describe.skipIf(!onPglite)('the event batch on the embedded database', () => {
  it('reads its sessions through the primary key alone, planned on a new database and after the table grew', async () => {
    const { siteId } = await createTenant();
    // A new site's first sessions: past the maintenance's threshold of changed rows (50), two pages.
    await addSessions(siteId, 60);
    await maintain();
    expect(await sessionStatistics(), 'a table of a few pages is left unanalyzed').toBeLessThan(0);
    expect(new Set(await sessionAccess())).toEqual(new Set(['visitor_sessions_pkey']));

    await addSessions(siteId, 3_000);
    await maintain();
    expect(await sessionStatistics()).toBeGreaterThanOrEqual(3_000);
    expect(new Set(await sessionAccess())).toEqual(new Set(['visitor_sessions_pkey']));
  });
});
