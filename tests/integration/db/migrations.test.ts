import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { database } from '@/lib/db/client';
import { migrate, MIGRATIONS_DIR, readMigrations } from '@/lib/db/migrate';
import * as schema from '@/lib/db/schema';
import { testDir } from '@/tests/helpers/test-env';

describe('migrations', () => {
  it('are all applied and tracked, and a second run applies nothing', async () => {
    const db = await database();
    const files = await readMigrations();
    const tracked = await db.sql.query<{ version: string }>('select version from schema_migrations order by version');
    expect(tracked.map((r) => r.version)).toEqual(files.map((f) => f.version));
    expect(await db.session((s) => migrate(s))).toEqual([]);
  });

  it('refuse to run when an applied migration file was changed', async () => {
    const db = await database();
    const dir = testDir('sgp-migrations-');
    for (const f of readdirSync(MIGRATIONS_DIR)) writeFileSync(path.join(dir, f), readFileSync(path.join(MIGRATIONS_DIR, f)));
    const first = readdirSync(dir).sort()[0];
    writeFileSync(path.join(dir, first), readFileSync(path.join(dir, first), 'utf8') + '\n-- edited\n');
    await expect(db.session((s) => migrate(s, dir))).rejects.toThrow(/changed after it was applied/);
  });

  it('refuse to run when two files share a version', async () => {
    const dir = testDir('sgp-migrations-');
    writeFileSync(path.join(dir, '20260101000000_first.sql'), 'select 1;');
    writeFileSync(path.join(dir, '20260101000000_second.sql'), 'select 2;');
    await expect(readMigrations(dir)).rejects.toThrow(/share the version 20260101000000/);
  });

  it('enable row-level security on every table', async () => {
    const db = await database();
    const tables = await db.sql.query<{ relname: string; relrowsecurity: boolean }>(
      `select c.relname, c.relrowsecurity from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname = 'public' and c.relkind = 'r' and c.relname <> 'schema_migrations'`,
    );
    expect(tables.length).toBeGreaterThan(0);
    for (const t of tables) expect(t.relrowsecurity, t.relname).toBe(true);
  });

  it('the typed schema mirrors the migrated tables column by column', async () => {
    const db = await database();
    for (const table of Object.values(schema) as PgTable[]) {
      const name = getTableName(table);
      const columns = await db.sql.query<{ column_name: string }>(
        `select column_name from information_schema.columns where table_schema = 'public' and table_name = $1`,
        [name],
      );
      const actual = columns.map((c) => c.column_name).sort();
      const declared = Object.values(getTableColumns(table))
        .map((c) => c.name)
        .sort();
      expect(declared, name).toEqual(actual);
    }
  });
});
