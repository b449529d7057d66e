import { database } from './client';

/**
 * Runs `fn` while holding the lock named `key`, so a count and the insert it allows happen as one
 * step (a cap checked by two concurrent requests is never passed by both). In this process the
 * callers queue on an in-memory lock; on Postgres a session advisory lock on a dedicated
 * connection also holds the other processes off. `fn` may use any connection: the lock does not
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

// Shared on globalThis: Next may load this module more than once in one process.
const QUEUES = Symbol.for('sgp.localLocks');
const holder = globalThis as { [QUEUES]?: Map<string, Promise<void>> };

async function localLock(key: string): Promise<() => void> {
  const queues = (holder[QUEUES] ??= new Map());
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
