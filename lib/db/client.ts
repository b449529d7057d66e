import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { migrate, type SqlRunner } from './migrate';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** An open database: the typed query layer, raw SQL for migrations, and a way to close it. */
export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  sql: SqlRunner;
  /** Runs `fn` on one dedicated connection (session-level locks and transactions hold). */
  session<T>(fn: (runner: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Raw SQL for libraries that bring their own statements (the workflow job queue): with values,
   * one parameterized statement; without, a script of any number of statements (the rows of the
   * last one are returned).
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
  close(): Promise<void>;
}

export type DatabaseOptions =
  | {
      kind: 'pglite';
      dataDir: string;
      /** start from a dump made by PGlite's dumpDataDir */
      loadDataDir?: Blob;
      /** Postgres shared_buffers in MB (default 16; Postgres' own default, 128, is resident from the start) */
      sharedBuffersMb?: number;
    }
  | { kind: 'postgres'; url: string; poolMax?: number };

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    if (!options.dataDir.includes('://')) mkdirSync(options.dataDir, { recursive: true });
    // Extensions the migrations create (lead search uses pg_trgm) must be loaded into PGlite.
    const extensions = { pg_trgm };
    // Postgres' default 128 MB of shared buffers (plus 4 MB of WAL buffers) are touched at start and
    // stay resident in the WebAssembly memory, which never shrinks. The embedded database of one
    // instance is small; a smaller buffer cache falls back to the OS page cache for the rest.
    const sharedBuffersMb = options.sharedBuffersMb ?? 16;
    const startParams = [
      ...PGlite.defaultStartParams,
      ...['-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', `wal_buffers=${Math.max(1, Math.round(sharedBuffersMb / 16))}MB`],
    ];
    const client = await PGlite.create(options.dataDir, {
      extensions,
      startParams,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    const sql: SqlRunner = {
      exec: async (text) => void (await client.exec(text)),
      query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    };
    return {
      kind: 'pglite',
      db: drizzle(client, { schema }) as unknown as Db,
      sql,
      session: (fn) => fn(sql), // PGlite is a single connection
      executeSql: async (text, values) => {
        if (values?.length) return { rows: (await client.query(text, values)).rows };
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      close: () => client.close(),
    };
  }
  const { Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new Pool({ connectionString: options.url, max: options.poolMax ?? 10 });
  // A client that is dropped by the server (restart, idle timeout) must not crash the process.
  pool.on('error', (error) => log.error('postgres pool error', errorFields(error)));
  const runner = (q: Pick<InstanceType<typeof Pool>, 'query'>): SqlRunner => ({
    exec: async (text) => void (await q.query(text)),
    query: async <T>(text: string, params?: unknown[]) => (await q.query(text, params)).rows as T[],
  });
  return {
    kind: 'postgres',
    db: drizzle(pool, { schema }) as unknown as Db,
    sql: runner(pool),
    session: async (fn) => {
      const client = await pool.connect();
      try {
        return await fn(runner(client));
      } finally {
        client.release();
      }
    },
    executeSql: async (text, values) => {
      const result = (await pool.query(text, values?.length ? values : undefined)) as unknown;
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last as { rows?: unknown[] } | undefined)?.rows ?? [] };
    },
    close: () => pool.end(),
  };
}

/** Opens the database and brings its schema up to date. */
export async function openMigratedDatabase(options: DatabaseOptions): Promise<Database> {
  const database = await openDatabase(options);
  try {
    await database.session((runner) => migrate(runner));
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

export function configuredDatabaseOptions(): DatabaseOptions {
  const c = config();
  return c.DATABASE_URL
    ? { kind: 'postgres', url: c.DATABASE_URL, poolMax: c.DATABASE_POOL_MAX }
    : { kind: 'pglite', dataDir: path.resolve(/*turbopackIgnore: true*/ c.DATA_DIR, 'pglite'), sharedBuffersMb: c.PGLITE_SHARED_BUFFERS_MB };
}

// One database per process: PGlite allows a single process per data directory, and Next may
// load this module more than once (route bundles, dev reloads), so the handle lives on globalThis.
const KEY = Symbol.for('sgp.database');
const KIND = Symbol.for('sgp.databaseKind');
type Holder = { [KEY]?: Promise<Database>; [KIND]?: Database['kind'] };
const holder = globalThis as Holder;

export function database(): Promise<Database> {
  holder[KEY] ??= openMigratedDatabase(configuredDatabaseOptions()).then(
    (db) => ((holder[KIND] = db.kind), db),
    (error) => {
      holder[KEY] = undefined;
      throw error;
    },
  );
  return holder[KEY];
}

/** The kind of the process database once it is open (undefined before). */
export function openedDatabaseKind(): Database['kind'] | undefined {
  return holder[KIND];
}

export async function getDb(): Promise<Db> {
  return (await database()).db;
}

/** Installs an already-open database as the process database (tests, scripts). */
export function useDatabase(db: Database): void {
  holder[KEY] = Promise.resolve(db);
  holder[KIND] = db.kind;
}
