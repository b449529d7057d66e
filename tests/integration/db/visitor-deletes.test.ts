import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';

/**
 * Deleting a visitor (and a site, through its visitors) deletes the rows that reference it by the
 * referencing column: each such table needs an index that starts with that column, or every
 * visitor deleted is a scan of the whole table (session_events holds every tracked event).
 */
describe('the tables that reference a visitor', () => {
  it('each have an index that starts with the referencing column', async () => {
    const db = await database();
    const unindexed = await db.sql.query<{ table: string; column: string }>(`
      select c.conrelid::regclass::text as table, a.attname as column
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
      where c.contype = 'f' and c.confrelid = 'visitors'::regclass and c.confdeltype = 'c'
        and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
      order by 1`);
    expect(unindexed).toEqual([]);
  });
});
