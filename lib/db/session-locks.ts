import { sql, type SQL } from 'drizzle-orm';
import type { Client } from 'pg';
import { errorFields, log } from '@/lib/core/log';

/**
 * A process's liveness as the database sees it: a session advisory lock, named by a namespace and
 * a key (two texts, hashed to the lock's two 32-bit halves), that the process takes once on a
 * connection it keeps (`Database.holdSessionLock`). No timer refreshes it: the lock lasts exactly
 * as long as the session, so when the process ends — exit, crash, kill, the machine gone — its
 * connection closes and the lock with it. Any process asks whether it is still held
 * (`sessionLockHeld`). Two keys whose hashes collide only make a gone process look alive.
 *
 * On the embedded database every client shares PGlite's one session: a lock taken there lasts
 * until the database closes, which the process holding it (the worker) does when it ends, and the
 * web process it serves ends with it.
 */

/** A condition: some session of this database holds the lock of `namespace` and `key` (a text expression). */
export const sessionLockHeld = (namespace: string, key: SQL): SQL =>
  sql`exists (select 1 from pg_locks l where l.locktype = 'advisory' and l.granted and l.objsubid = 2
    and l.database = (select oid from pg_database where datname = current_database())
    and l.classid = hashtext(${namespace})::oid and l.objid = hashtext(${key})::oid)`;

/** Takes the lock ($1 namespace, $2 key) on the session it runs on; waits while another session holds it. */
export const TAKE_SESSION_LOCK = 'select pg_advisory_lock(hashtext($1), hashtext($2))';

/** On a database of one session (PGlite): takes the lock unless the session already holds it (a second take would only stack). */
export const takeSessionLockOnce = (namespace: string, key: string): SQL =>
  sql`select pg_advisory_lock(hashtext(${namespace}), hashtext(${key})) where not ${sessionLockHeld(namespace, sql`${key}`)}`;

/**
 * The locks one Postgres database holds for this process, each on a connection of its own (a pool
 * connection goes back to the pool, and its session with it). A lock whose connection drops (the
 * server restarted, the network broke) is taken again on a new one at once; when that fails too,
 * the next `take` tries again. Callers wait for the first take only: a second one may wait for as
 * long as the server keeps the dropped session (and with it the lock) alive.
 */
export function sessionLocksOn(newClient: () => Client): { take(namespace: string, key: string): Promise<void>; close(): Promise<void> } {
  const held = new Map<string, { taking: Promise<void>; again: boolean }>();
  const clients = new Set<Client>();
  let closed = false;
  const take = (namespace: string, key: string, again = false): Promise<void> => {
    const name = JSON.stringify([namespace, key]);
    const existing = held.get(name);
    if (existing) return existing.again ? Promise.resolve() : existing.taking;
    const client = newClient();
    clients.add(client);
    let up = false;
    let down = false;
    const drop = (error?: unknown) => {
      if (down) return;
      down = true;
      clients.delete(client);
      if (held.get(name)?.taking === taking) held.delete(name);
      void client.end().catch(() => undefined);
      if (closed || !up) return;
      log.warn('a held session lock was lost with its connection; taking it again', { namespace, ...(error ? errorFields(error) : {}) });
      take(namespace, key, true).catch((e: unknown) =>
        log.error('session lock not taken again; its next use tries again', { namespace, ...errorFields(e) }),
      );
    };
    client.on('error', drop);
    client.on('end', () => drop());
    const taking: Promise<void> = client
      .connect()
      .then(() => client.query(TAKE_SESSION_LOCK, [namespace, key]))
      .then(
        () => {
          up = true;
        },
        (error: unknown) => {
          drop(error);
          throw error;
        },
      );
    held.set(name, { taking, again });
    return taking;
  };
  return {
    take,
    /** Lets every lock go: answers once their sessions have ended. */
    async close() {
      closed = true;
      await Promise.all([...clients].map((client) => client.end().catch(() => undefined)));
    },
  };
}
