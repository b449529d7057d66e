import { sql } from 'drizzle-orm';
import { processState } from '@/lib/core/process-state';
import { database, openedDatabaseKind, type Db } from './client';

/**
 * Counting and inserting as one step (a cap checked by two requests at the same instant is never
 * passed by both), across every process of the app, on every database:
 *
 * - **`lockForTransaction`**, the rule: the count and the insert it allows are one transaction that
 *   first takes the cap's lock (a batch of writes takes the locks of all its caps, in one fixed order). On Postgres that is a transaction advisory lock
 *   (`pg_advisory_xact_lock`), held until commit, so every other transaction of any process that
 *   asks for the same key waits, and its count (a new statement, a new snapshot) sees the rows
 *   committed before. On the embedded database (PGlite, in process or through the socket the
 *   worker serves, `./embedded-server.ts`) there is one backend session and a transaction has it
 *   to itself from `begin` to commit — in process PGlite's own transaction mutex, over the socket
 *   the server hands the backend to one connection until it is idle again — so no other
 *   statement, of this process or another, can run between the count and the insert; a lock
 *   there would be re-entrant (one session) and is not taken.
 * - **`withLock`**, only for a step that cannot be one database transaction: the Temporal engine's
 *   start (a count through the cluster's visibility store, the start on the cluster, the wait until
 *   the run is visible). In this process callers queue on an in-memory lock; on Postgres a session
 *   advisory lock on a dedicated connection holds the other processes off as well.
 */
export async function lockForTransaction(tx: Db, ...keys: string[]): Promise<void> {
  if (openedDatabaseKind() !== 'postgres' || keys.length === 0) return;
  // Several caps (a batch of writes) are taken in one fixed order, so two batches never wait on each other in a circle.
  await tx.execute(sql`
    select pg_advisory_xact_lock(h)
    from (select distinct hashtext(k) as h from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) as k order by h) as ordered`);
}

/** Runs `fn` in a transaction of the process database that first takes the locks of `keys` (lockForTransaction). */
export async function lockedTransaction<T>(keys: string[], fn: (tx: Db) => Promise<T>): Promise<T> {
  const { db } = await database();
  return db.transaction(async (tx) => {
    await lockForTransaction(tx, ...keys);
    return fn(tx);
  });
}

/**
 * Runs `fn` while holding the lock named `key`. `fn` may use any connection: the lock does not
 * live in a transaction, so its own writes are committed before the lock is released.
 */
export async function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const release = await localLock(key);
  try {
    const db = await database();
    if (db.kind !== 'postgres') return await fn();
    return await db.session(async (conn) => {
      await conn.query('select pg_advisory_lock(hashtext($1))', [key]);
      try {
        return await fn();
      } finally {
        await conn.query('select pg_advisory_unlock(hashtext($1))', [key]);
      }
    });
  } finally {
    release();
  }
}

// Process state: Next may load this module more than once in one process.
const lockQueues = () => processState('db.localLocks', () => new Map<string, Promise<void>>());

async function localLock(key: string): Promise<() => void> {
  const queues = lockQueues();
  const previous = queues.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  queues.set(key, tail);
  await previous;
  return () => {
    release();
    if (queues.get(key) === tail) queues.delete(key);
  };
}
