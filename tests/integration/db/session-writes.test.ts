import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';

/**
 * A session is updated by every event tracked in it, every renewal and every ping. None of these
 * updates may change a column that an index of visitor_sessions uses (as a key, in an expression
 * or in its predicate): then Postgres updates the row in place on its page (a HOT update) and
 * writes no index entry, instead of one in each of the table's indexes per event.
 */
const ACTIVITY_COLUMNS = [
  // lib/visitors/events-repo.ts: each event batch
  'event_count',
  'page_views',
  'conversions',
  'current_url',
  'last_activity_at',
  'updated_at',
  'expires_at',
  // lib/visitors/sessions-repo.ts: updateSession (PUT) besides the above
  'consent',
  'active_time',
  'idle_time',
  'custom_data',
];

describe('the writes of session activity', () => {
  it('change no column an index of visitor_sessions depends on', async () => {
    const db = await database();
    // An index depends on each column it names, in its keys, expressions and predicate.
    const indexed = await db.sql.query<{ index: string; column: string }>(`
      select i.indexrelid::regclass::text as index, a.attname as column
      from pg_index i
      join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = i.indexrelid
        and d.refclassid = 'pg_class'::regclass and d.refobjid = i.indrelid and d.refobjsubid > 0
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = d.refobjsubid
      where i.indrelid = 'visitor_sessions'::regclass`);
    const columns = new Set(indexed.map((r) => r.column));
    // The query sees the indexes (keys and partial predicates alike).
    expect(columns).toContain('visitor_id');
    expect(columns).toContain('status');
    expect(indexed.filter((r) => ACTIVITY_COLUMNS.includes(r.column))).toEqual([]);
  });

  it('leave room on each page for the updated row (fillfactor below 100)', async () => {
    const db = await database();
    const [{ options }] = await db.sql.query<{ options: string[] | null }>(
      `select reloptions as options from pg_class where oid = 'visitor_sessions'::regclass`,
    );
    const fillfactor = Number(options?.find((o) => o.startsWith('fillfactor='))?.split('=')[1] ?? 100);
    expect(fillfactor).toBeLessThan(100);
  });
});
