import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';

/**
 * Deleting a row (a visitor, a site, a segment, an outbound event…) makes the database find the rows
 * that reference it by the referencing column, once per deleted row, to cascade, set null or refuse:
 * each such column needs an index that starts with it (a partial one on `col is not null` serves
 * too), or every delete is a scan of the whole referencing table (session_events holds every
 * tracked event, visitor_sessions every session).
 */
describe('foreign keys', () => {
  it('each have an index that starts with the referencing column', async () => {
    const db = await database();
    const unindexed = await db.sql.query<{ table: string; column: string }>(`
      select c.conrelid::regclass::text as table, a.attname as column
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
      order by 1, 2`);
    expect(unindexed).toEqual([]);
  });
});
