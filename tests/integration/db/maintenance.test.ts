import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { maintainEmbeddedTables } from '@/lib/db/maintenance';

/**
 * The embedded database runs no autovacuum: the worker's maintenance job vacuums and analyzes the
 * tables that autovacuum would have. Postgres does it by itself, and the job leaves it alone.
 */
const onPglite = process.env.TEST_DB !== 'postgres';

async function activity(table: string) {
  const db = await database();
  const [row] = await db.sql.query<{ dead: number; modified: number; tuples: number }>(
    `select s.n_dead_tup::int as dead, s.n_mod_since_analyze::int as modified, c.reltuples::int as tuples
     from pg_stat_user_tables s join pg_class c on c.oid = s.relid where s.relname = $1`,
    [table],
  );
  return row;
}

describe('database maintenance', () => {
  it('vacuums and analyzes an embedded table once its dead rows pass the threshold, then leaves it; leaves Postgres to autovacuum', async () => {
    if (!onPglite) {
      expect(await maintainEmbeddedTables()).toEqual({ vacuumed: [], analyzed: [] });
      return;
    }
    const db = await database();
    await db.sql.exec(`create table maintenance_probe (id int primary key, v int)`);
    await db.sql.exec(`insert into maintenance_probe select g, 0 from generate_series(1, 1000) g`);
    await db.sql.exec(`update maintenance_probe set v = 1`);
    await db.sql.exec(`update maintenance_probe set v = 2`);
    // Statement statistics reach the shared counters when a transaction ends after a forced flush.
    await db.sql.query(`select pg_stat_force_next_flush()`);
    await db.sql.query(`select 1`);
    expect((await activity('maintenance_probe')).dead).toBeGreaterThanOrEqual(2000);
    expect((await activity('maintenance_probe')).tuples).toBeLessThan(1);

    const done = await maintainEmbeddedTables();
    expect(done.vacuumed).toContain('public.maintenance_probe');
    expect(await activity('maintenance_probe')).toMatchObject({ dead: 0, modified: 0, tuples: 1000 });
    const again = await maintainEmbeddedTables();
    expect([...again.vacuumed, ...again.analyzed]).not.toContain('public.maintenance_probe');
  });
});
