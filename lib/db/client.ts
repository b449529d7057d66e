import { createHash } from 'node:crypto';
import { accessSync, constants, mkdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGliteInterface } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { config } from '@/lib/core/config';
import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { serveEmbedded, type EmbeddedServer, type ProtocolBackend } from './embedded-server';
import { migrate, migrationsFingerprint, type SqlRunner } from './migrate';
import { listenForNotifications } from './notifications';
import * as schema from './schema';
import { sessionLocksOn, takeSessionLockOnce } from './session-locks';

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
  /**
   * Takes the session advisory lock of `namespace` and `key` and keeps it while this process has
   * this database open: a sign of life that ends with the process (lib/db/session-locks.ts). On
   * Postgres, on a connection of its own; on the embedded database, in its one session. Taking it
   * again is a no-op.
   */
  holdSessionLock(namespace: string, key: string): Promise<void>;
  /**
   * Calls `onNotify` with the payload of each notification on `channel` (committed NOTIFYs of any
   * process). On Postgres, on a connection of its own that is opened again (backing off) whenever it
   * drops, until `close`; `onListening` tells when notifications flow (true: a probe sent through the
   * pool arrived) and when they may be missed (false: the connection dropped, is not up yet, or
   * notifications do not reach it — lib/db/notifications.ts). The embedded database's own process
   * hears them in process (its socket's clients' statements included); a process reaching it through
   * the socket has no `listen`.
   */
  listen?(channel: string, onNotify: (payload: string) => void, onListening: (listening: boolean) => void): void;
  /** The embedded database only: serves it to the app's other processes on a Unix socket in `socketDir`. */
  serve?(socketDir: string): Promise<EmbeddedServer>;
  /** The embedded database only: bytes of its WebAssembly memory (grows with its peak allocation, never shrinks). */
  wasmMemoryBytes?(): number;
  close(): Promise<void>;
}

/** The port number in the embedded socket's file name (`<dir>/.s.PGSQL.<port>`, as Postgres names its sockets). */
export const EMBEDDED_SOCKET_PORT = 5432;
export const embeddedSocketPath = (socketDir: string) => path.join(socketDir, `.s.PGSQL.${EMBEDDED_SOCKET_PORT}`);

export type DatabaseOptions =
  | {
      kind: 'pglite';
      dataDir: string;
      /** start from a dump made by PGlite's dumpDataDir */
      loadDataDir?: Blob;
      /** Postgres shared_buffers in MB (default 16; Postgres' own default, 128, is resident from the start) */
      sharedBuffersMb?: number;
    }
  | {
      kind: 'postgres';
      url: string;
      poolMax?: number;
      /** How long a new connection may take before its query fails (default: no limit). */
      connectTimeoutMs?: number;
      /** The name the connections show in pg_stat_activity. */
      applicationName?: string;
    }
  /**
   * The embedded database held by another process of this app (the worker the server starts),
   * reached over its Unix socket in `socketDir` with the Postgres protocol.
   */
  | { kind: 'pglite-socket'; socketDir: string; poolMax?: number };

const READ_ONLY = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * The embedded database needs a data directory it can write. Where the file system is read-only
 * (a serverless function, a read-only container) it cannot run: say so, and what to do instead.
 */
export function writableDataDir(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (!READ_ONLY.has(code)) throw error;
    throw new Error(
      `The embedded database cannot write its data directory ${dir} (${code}: the file system is read-only here). ` +
        'Set DATABASE_URL to a Postgres database (for example Supabase) — see docs/OPERATIONS.md "Production topology" — or DATA_DIR to a writable directory.',
    );
  }
}

/**
 * A prepared statement's name on a connection: the same text, the same name. The job queue sends a
 * few dozen texts; past PREPARED_MAX (a library that built texts with values in them) further
 * texts go unnamed, so neither this map nor any connection's statements grow without bound.
 */
const PREPARED_MAX = 200;
const preparedNames = processState('db.preparedNames', () => new Map<string, string>());
function preparedName(text: string): string | undefined {
  let name = preparedNames.get(text);
  if (!name && preparedNames.size < PREPARED_MAX) preparedNames.set(text, (name = `q${createHash('sha1').update(text).digest('hex').slice(0, 24)}`));
  return name;
}

/**
 * PGlite's protocol entry for the socket server, answering with the backend's bytes as they are.
 * PGlite's own `execProtocolRaw` also parses every message of its answer into objects and keeps
 * them until its next `query`/`exec` call, which a process that only relays the protocol never
 * makes: the holder's V8 heap grew with every row it served (~14 KB per leads page, +210 MB after
 * 15,000 of them). The raw stream hands over the bytes without parsing them.
 */
function unparsedProtocol(client: PGliteInterface): ProtocolBackend {
  return {
    async execProtocolRaw(message) {
      const chunks: Uint8Array[] = [];
      // `data` is a view into the WebAssembly memory that the next output overwrites: copied now.
      await client.execProtocolRawStream(message, { onRawData: (data) => void chunks.push(data.slice()) });
      return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
    },
    listen: (channel, onPayload) => client.listen(channel, onPayload),
  };
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.kind === 'pglite') {
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    if (!options.dataDir.includes('://')) writableDataDir(options.dataDir);
    // Extensions the migrations create (lead search uses pg_trgm) must be loaded into PGlite.
    const extensions = { pg_trgm };
    // Postgres' default 128 MB of shared buffers (plus 4 MB of WAL buffers) are touched at start and
    // stay resident in the WebAssembly memory, which never shrinks. The embedded database of one
    // instance is small; a smaller buffer cache falls back to the OS page cache for the rest.
    const sharedBuffersMb = options.sharedBuffersMb ?? 16;
    const startParams = [
      ...PGlite.defaultStartParams,
      ...['-c', `shared_buffers=${sharedBuffersMb}MB`, '-c', `wal_buffers=${Math.max(1, Math.round(sharedBuffersMb / 16))}MB`],
      // Its pages are in memory (the buffer cache or the OS page cache): a page read by an index costs
      // about what the next page of a scan does. At Postgres' default of 4 (a disk seek), a table of a
      // few pages is planned as a scan — and a plan kept for a statement or a foreign key's check
      // (made once per backend, when the table was new) went on scanning it as it grew: every session
      // start read all visitors to check its visitor_id, 250 → 850 µs a start after 15,000 visitors.
      '-c',
      'random_page_cost=1.1',
    ];
    const client = await PGlite.create(options.dataDir, {
      extensions,
      startParams,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    });
    // The listeners of notifications committed by the socket's clients, by channel (PGlite hands those over raw).
    const relayed = new Map<string, Set<(payload: string) => void>>();
    const sql: SqlRunner = {
      exec: async (text) => void (await client.exec(text)),
      query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
    };
    const db = drizzle(client, { schema }) as unknown as Db;
    return {
      kind: 'pglite',
      db,
      sql,
      session: (fn) => fn(sql), // PGlite is a single connection
      executeSql: async (text, values) => {
        if (values?.length) return { rows: (await client.query(text, values)).rows };
        const results = await client.exec(text);
        return { rows: results.at(-1)?.rows ?? [] };
      },
      holdSessionLock: async (namespace, key) => void (await db.execute(takeSessionLockOnce(namespace, key))),
      // Notifications of every statement: this process's (PGlite's own listeners) and its socket's clients'.
      listen: (channel, onNotify, onListening) => {
        const listeners = relayed.get(channel) ?? new Set();
        relayed.set(channel, listeners.add(onNotify));
        client.listen(channel, onNotify).then(
          () => onListening(true),
          (error: unknown) => {
            log.error('database notifications unavailable', { channel, ...errorFields(error) });
            onListening(false);
          },
        );
      },
      serve: (socketDir) =>
        serveEmbedded(unparsedProtocol(client), embeddedSocketPath(socketDir), ({ channel, payload }) => {
          for (const onNotify of relayed.get(channel) ?? []) onNotify(payload);
        }),
      wasmMemoryBytes: () => client.Module.wasmMemory.buffer.byteLength,
      close: () => client.close(),
    };
  }
  const { Client, Pool } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool =
    options.kind === 'postgres'
      ? new Pool({
          connectionString: options.url,
          max: options.poolMax ?? 10,
          ...(options.connectTimeoutMs ? { connectionTimeoutMillis: options.connectTimeoutMs } : {}),
          ...(options.applicationName ? { application_name: options.applicationName } : {}),
        })
      : new Pool({ host: options.socketDir, port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres', max: options.poolMax ?? 8 });
  // A client that is dropped by the server (restart, idle timeout) must not crash the process.
  pool.on('error', (error) => log.error('postgres pool error', errorFields(error)));
  const runner = (q: Pick<InstanceType<typeof Pool>, 'query'>): SqlRunner => ({
    exec: async (text) => void (await q.query(text)),
    query: async <T>(text: string, params?: unknown[]) => (await q.query(text, params)).rows as T[],
  });
  const newClient = () =>
    options.kind === 'postgres'
      ? new Client({ connectionString: options.url })
      : new Client({ host: options.socketDir, port: EMBEDDED_SOCKET_PORT, user: 'postgres', database: 'postgres' });
  // Stopped when the database closes.
  const listeners = new Set<() => void>();
  const locks = sessionLocksOn(newClient);
  const db = drizzle(pool, { schema }) as unknown as Db;
  return {
    // Over the socket it is still PGlite: one query at a time, whoever sends it.
    kind: options.kind === 'postgres' ? 'postgres' : 'pglite',
    db,
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
      // The job queue's statements are a fixed set of texts sent again and again (a worker's fetch many
      // times a second): on Postgres each is prepared once per connection, so it is parsed and planned
      // once instead of per call. (Over the embedded socket they stay unnamed.)
      const name = options.kind === 'postgres' && values?.length ? preparedName(text) : undefined;
      const result = (await pool.query({ text, values: values?.length ? values : undefined, ...(name ? { name } : {}) })) as unknown;
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last as { rows?: unknown[] } | undefined)?.rows ?? [] };
    },
    // On the embedded database's socket, the holder relays notifications to the connections that sent LISTEN.
    listen: (channel: string, onNotify: (payload: string) => void, onListening: (listening: boolean) => void) => {
      listeners.add(listenForNotifications(newClient, pool, channel, onNotify, onListening));
    },
    // Over the socket, the embedded database's one session holds it (a lock of a connection would outlive the connection there).
    holdSessionLock: (namespace, key) =>
      options.kind === 'postgres' ? locks.take(namespace, key) : db.execute(takeSessionLockOnce(namespace, key)).then(() => undefined),
    close: async () => {
      for (const stop of listeners) stop();
      await locks.close();
      await pool.end();
    },
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

/**
 * The process database from config: Postgres with DATABASE_URL; else the embedded database —
 * opened here, or, in a web process whose worker holds it (`useEmbeddedHost`), over its socket.
 */
export function configuredDatabaseOptions(): DatabaseOptions {
  const c = config();
  if (c.DATABASE_URL) return { kind: 'postgres', url: c.DATABASE_URL, poolMax: c.DATABASE_POOL_MAX };
  const socketDir = holder.host;
  if (socketDir) return { kind: 'pglite-socket', socketDir };
  return { kind: 'pglite', dataDir: embeddedDataDir(), sharedBuffersMb: c.PGLITE_SHARED_BUFFERS_MB };
}

/**
 * The embedded database's data directory records the migrations it was last brought up to date
 * with (a file of ours beside Postgres' own). A hint only: whoever opens it still migrates, which
 * finds nothing to do when the hint is right.
 */
const preparedStamp = (dataDir: string) => path.join(/*turbopackIgnore: true*/ dataDir, 'sgp_prepared');

/** Whether the embedded database at `dataDir` was prepared with the migrations on disk now. */
export async function embeddedPrepared(dataDir: string): Promise<boolean> {
  const stamp = await readFile(/*turbopackIgnore: true*/ preparedStamp(dataDir), 'utf8').catch(() => '');
  return stamp !== '' && stamp === (await migrationsFingerprint());
}

export async function markEmbeddedPrepared(dataDir: string): Promise<void> {
  await writeFile(/*turbopackIgnore: true*/ preparedStamp(dataDir), await migrationsFingerprint());
}

export const embeddedDataDir = () => path.resolve(/*turbopackIgnore: true*/ config().DATA_DIR, 'pglite');

/** This process reaches the embedded database through the process that holds it, at `socketDir`. */
export function useEmbeddedHost(socketDir: string): void {
  holder.host = socketDir;
}

// One database per process: PGlite allows a single process per data directory, and Next may
// load this module more than once (route bundles, dev reloads), so the handle is process state.
type Holder = {
  opening?: Promise<Database>;
  kind?: Database['kind'];
  host?: string;
  hooks: ((db: Database) => Promise<unknown>)[];
  open?: Database;
  /** The analytics read replica; null: none configured. */
  read?: Promise<Database> | null;
};
const holder = processState<Holder>('db.client', () => ({ hooks: [] }));

/**
 * Work that must be done once the process database is open and before anyone uses it: the job
 * queue's client starts (and creates its schema), so that a job can later be written inside any
 * transaction. A hook registered after the database opened runs at once.
 */
export function onDatabaseOpened(hook: (db: Database) => Promise<unknown>): void {
  holder.hooks.push(hook);
  if (holder.open) void hook(holder.open).catch((error) => log.error('database open hook failed', errorFields(error)));
}

async function opened(db: Database): Promise<Database> {
  holder.kind = db.kind;
  holder.open = db;
  // A hook that fails (the database went away) leaves the database usable for what still works.
  for (const hook of holder.hooks) await hook(db).catch((error) => log.error('database open hook failed', errorFields(error)));
  return db;
}

export function database(): Promise<Database> {
  holder.opening ??= openMigratedDatabase(configuredDatabaseOptions()).then(
    (db) => opened(db),
    (error) => {
      holder.opening = undefined;
      throw error;
    },
  );
  return holder.opening;
}

/** The process database once it is open (undefined before). */
/** Opens the process's database now (a composition root's start: a wrong setting fails at once). */
export async function openProcessDatabase(): Promise<void> {
  await database();
}

/** Closes the process's database at shutdown. */
export async function closeProcessDatabase(): Promise<void> {
  await (await database()).close();
}

export function openedDatabase(): Database | undefined {
  return holder.open;
}

/** The kind of the process database once it is open (undefined before). */
export function openedDatabaseKind(): Database['kind'] | undefined {
  return holder.kind;
}

export async function getDb(): Promise<Db> {
  return (await database()).db;
}

/** A read replica that does not answer within this long is skipped for the read at hand (lib/db/replica.ts). */
const READ_CONNECT_TIMEOUT_MS = 2_000;

/**
 * The analytics read replica (DATABASE_READ_URL), opened on first use — no migrations: it replays
 * the primary's. Undefined without one. Only lib/db/replica.ts sends statements to it.
 */
export function readReplica(): Promise<Database> | undefined {
  if (holder.read === undefined) {
    const c = config();
    holder.read = c.DATABASE_READ_URL
      ? openDatabase({
          kind: 'postgres',
          url: c.DATABASE_READ_URL,
          poolMax: c.DATABASE_READ_POOL_MAX,
          connectTimeoutMs: READ_CONNECT_TIMEOUT_MS,
          applicationName: 'sgp-analytics-read',
        })
      : null;
  }
  return holder.read ?? undefined;
}

/** Installs an already-open read replica (null: none) in place of DATABASE_READ_URL's (tests). */
export function useReadReplica(db: Database | null): void {
  holder.read = db ? Promise.resolve(db) : null;
}

/** Installs an already-open database as the process database (tests, scripts). */
export function useDatabase(db: Database): Promise<Database> {
  holder.opening = opened(db);
  holder.kind = db.kind;
  return holder.opening;
}

/**
 * Raw SQL with `$n` parameters on a drizzle database or transaction, for libraries that bring
 * their own statements and accept an executor (the job queue writing a job with the caller's
 * transaction). Each `$n` becomes a bound parameter; the text is never interpolated.
 */
export function executorOf(db: Db): { executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> } {
  return {
    async executeSql(text, values = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const m of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, m.index)));
        chunks.push(sql`${values[Number(m[1]) - 1] ?? null}`);
        last = m.index! + m[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = (await db.execute(sql.join(chunks))) as unknown as { rows?: unknown[] };
      return { rows: result.rows ?? [] };
    },
  };
}
