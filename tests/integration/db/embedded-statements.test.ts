import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMBEDDED_SOCKET_PORT, openDatabase, type Database } from '@/lib/db/client';
import type { EmbeddedServer } from '@/lib/db/embedded-server';
import { PLAN_PER_CALL } from '@/lib/db/statement-cache';

/**
 * The embedded database served on its socket keeps the statements its clients send parsed
 * (lib/db/statement-cache.ts): through the Postgres driver, on several connections at once, every
 * answer is the one the database gives directly, whatever happened before it.
 */
let home: Database;
let server: EmbeddedServer;
let socketDir: string;
let pool: pg.Pool;

beforeAll(async () => {
  home = await openDatabase({ kind: 'pglite', dataDir: 'memory://' });
  await home.sql.exec(`create table items (id int primary key, name text not null, tags text[] not null default '{}');
    insert into items select g, 'item ' || g, array['t' || (g % 3)] from generate_series(1, 200) g;`);
  socketDir = mkdtempSync(path.join(tmpdir(), 'sgp-statements-'));
  server = await home.serve!(socketDir);
  pool = new pg.Pool({ host: socketDir, port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres', max: 4 });
});

afterAll(async () => {
  await pool?.end().catch(() => undefined);
  await server?.close().catch(() => undefined);
  await home?.close().catch(() => undefined);
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
});

const held = async () =>
  Number((await home.sql.query<{ n: number }>(`select count(*)::int as n from pg_prepared_statements where name like 'sgp_s%'`))[0].n);

describe('embedded database socket: held statements', () => {
  it('answers as the database does directly, on several connections at once', async () => {
    const text = 'select id, name, tags from items where id % $1 = $2 order by id';
    const cases = Array.from({ length: 40 }, (_, i) => [7 + (i % 5), i % 7]);
    const over = await Promise.all(cases.map((values) => pool.query(text, values)));
    for (const [i, values] of cases.entries()) {
      expect(over[i].rows).toEqual(await home.sql.query(text, values));
      expect(over[i].fields.map((f) => f.name)).toEqual(['id', 'name', 'tags']);
    }
    expect(await held()).toBeGreaterThanOrEqual(1);
  });

  it('a statement marked to be planned per call is never held, so never runs a generic plan', async () => {
    const text = 'select id from items where name like $1 order by id limit $2';
    const plans = async (t: string) =>
      home.sql.query<{ generic: number; custom: number }>(
        `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement = $1`,
        [t],
      );
    for (let i = 0; i < 12; i++) {
      const values = [`item ${i % 9}%`, 3 + i];
      expect((await pool.query(PLAN_PER_CALL + text, values)).rows).toEqual(await home.sql.query(text, values));
      await pool.query(text, values);
    }
    expect(await plans(PLAN_PER_CALL + text)).toEqual([]);
    // Held, the same text is planned for its values five times, then may keep a generic plan.
    const [twin] = await plans(text);
    expect(twin.generic + twin.custom).toBe(12);
  });

  it('an error in the middle of an exchange leaves the connection usable', async () => {
    const client = await pool.connect();
    try {
      const text = 'select $1::int + 1 as n';
      expect((await client.query(text, ['1'])).rows).toEqual([{ n: 2 }]);
      await expect(client.query(text, ['x'])).rejects.toMatchObject({ code: '22P02' });
      expect((await client.query(text, ['41'])).rows).toEqual([{ n: 42 }]);
      await expect(client.query('select id from items where id = $1 and nope', [1])).rejects.toMatchObject({ code: '42703' });
      expect((await client.query('select count(*)::int as n from items where id <= $1', [10])).rows).toEqual([{ n: 10 }]);
    } finally {
      client.release();
    }
  });

  it('transactions: their writes are seen inside, rolled back, and a failed one recovers', async () => {
    const [a, b] = [await pool.connect(), await pool.connect()];
    try {
      const count = 'select count(*)::int as n from items where name = $1';
      await a.query('begin');
      await a.query('insert into items (id, name) values ($1, $2)', [1000, 'in tx']);
      expect((await a.query(count, ['in tx'])).rows).toEqual([{ n: 1 }]);
      await a.query('rollback');
      expect((await b.query(count, ['in tx'])).rows).toEqual([{ n: 0 }]);

      await a.query('begin');
      await expect(a.query('insert into items (id, name) values ($1, $2)', [1, 'duplicate'])).rejects.toMatchObject({ code: '23505' });
      await expect(a.query(count, ['item 1'])).rejects.toMatchObject({ code: '25P02' });
      await a.query('rollback');
      expect((await a.query(count, ['item 1'])).rows).toEqual([{ n: 1 }]);
    } finally {
      a.release();
      b.release();
    }
  });

  it('a statement whose table changed, or that the backend dropped, is prepared again', async () => {
    await home.sql.exec(`create table notes (id int primary key, body text); insert into notes values (1, 'a'), (2, 'b');`);
    const text = 'select * from notes where id = $1';
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, body: 'a' }]);
    expect((await pool.query(text, [2])).rows).toEqual([{ id: 2, body: 'b' }]);
    await home.sql.exec(`alter table notes add column author text default 'me'`);
    expect((await pool.query(text, [1])).rows).toEqual([{ id: 1, body: 'a', author: 'me' }]);
    await pool.query('deallocate all');
    expect((await pool.query(text, [2])).rows).toEqual([{ id: 2, body: 'b', author: 'me' }]);
  });

  it('client-named statements pass through', async () => {
    const named = { name: 'mine', text: 'select name from items where id = $1' };
    expect((await pool.query({ ...named, values: [3] })).rows).toEqual([{ name: 'item 3' }]);
    expect((await pool.query({ ...named, values: [4] })).rows).toEqual([{ name: 'item 4' }]);
  });

  it('served again on the same database, the texts it held before still answer', async () => {
    const text = 'select name from items where id = $1';
    expect((await pool.query(text, [5])).rows).toEqual([{ name: 'item 5' }]);
    await pool.end();
    await server.close();
    server = await home.serve!(socketDir);
    pool = new pg.Pool({ host: socketDir, port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres', max: 4 });
    expect((await pool.query(text, [6])).rows).toEqual([{ name: 'item 6' }]);
    expect((await pool.query(text, [7])).rows).toEqual([{ name: 'item 7' }]);
  });

  it('holds at most 256 statements; further texts still answer', async () => {
    const before = await held();
    for (let i = 0; i < 300; i++) expect((await pool.query(`select $1::int + ${i} as n`, [1])).rows).toEqual([{ n: 1 + i }]);
    expect((await held()) - before).toBeLessThanOrEqual(256);
    expect((await pool.query('select $1::int + 299 as n', [2])).rows).toEqual([{ n: 301 }]);
  });
});
