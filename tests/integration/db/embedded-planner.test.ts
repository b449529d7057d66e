import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '@/lib/db/client';

/**
 * The embedded database keeps a foreign key's check planned for as long as the backend lives, made
 * the first time a row is checked. Its pages are in memory, and it is planned so (random_page_cost):
 * a referenced table of a few pages is read through its primary key, not scanned — a plan that stays
 * right as the table grows (a scan planned when `visitors` was small read every visitor per session start).
 */
let db: Database;

beforeAll(async () => {
  db = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
  await db.sql.exec(`
    create table parents (id uuid primary key, site_id uuid not null, fingerprint text not null, first_seen bigint not null, last_seen bigint not null);
    create table children (id uuid primary key, parent_id uuid not null references parents (id));
    insert into parents select gen_random_uuid(), gen_random_uuid(), 'fingerprint-' || g, g, g from generate_series(1, 200) g;
    analyze parents;`);
});

afterAll(async () => {
  await db?.close().catch(() => undefined);
});

const parentScans = async () => {
  await db.sql.exec('select pg_stat_force_next_flush()');
  const [row] = await db.sql.query<{ scans: number }>(`select seq_scan::int as scans from pg_stat_user_tables where relname = 'parents'`);
  return row.scans;
};

describe('embedded database planner', () => {
  it("checks a foreign key through the referenced table's primary key, not a scan of it", async () => {
    const ids = (await db.sql.query<{ id: string }>('select id from parents limit 20')).map((r) => r.id);
    const before = await parentScans();
    for (const id of ids) await db.sql.query('insert into children values (gen_random_uuid(), $1)', [id]);
    expect(await parentScans()).toBe(before);
  });
});
