import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { onShutdown } from '@/lib/core/shutdown';
import { database, openedDatabase, type Database } from './client';

/**
 * When a process may answer from what it kept of credential lookups (verified API keys), and how a
 * request that takes access away makes sure no process still does (docs/ARCHITECTURE.md, "Access
 * ends on every instance"). A cache asks `cacheUsable()` before each use and drops what it kept
 * whenever `cacheGeneration()` moved on; a change calls `credentialsChanged()` after it committed and
 * answers only when that resolves.
 *
 * Embedded database: one web process serves every request and makes every change, so forgetting
 * in that process is enough (the worker process does not keep credentials).
 *
 * Postgres (any number of processes):
 * - every committed change to what a lookup answers is announced on CHANNEL (the triggers of
 *   migration 20261125170000); each process listens, and forgets on any announcement;
 * - a process keeps only while it holds a lease in `credential_cache_leases`, renewed only after a
 *   probe it sent through its pool came back on its listening connection (notifications are
 *   delivered in commit order, so it had then received every change committed before the probe);
 *   it counts its lease from before it sent the probe, shortened by LEASE_MARGIN_MS, so it stops
 *   keeping before the database's record of the lease ends;
 * - after a change commits, the changing request sends a barrier: a numbered notification of its
 *   own, committed after the change. A process that receives it has received the change before it
 *   (commit order), forgot, and writes the number into its lease row. The request answers once
 *   every other live lease has seen a barrier at least as high, or has ended. Barrier numbers come
 *   from a sequence taken by the barrier itself after the change committed, so any barrier numbered
 *   as high was committed after the change too.
 * A process whose listening connection hangs stops acknowledging and renewing: the request waits for
 * its lease to end (at most LEASE_MS), and the process stops keeping before that.
 */
const CHANNEL = 'api_key_changes';
export const LEASE_MS = 6_000;
/** Taken off the process's own reckoning of its lease: covers clock rate differences and a late probe. */
const LEASE_MARGIN_MS = 1_000;
const PROBE_TIMEOUT_MS = 2_000;
/** A revoking request waits at most this long (a lease can be renewed once on a probe sent before its barrier). */
const MAX_WAIT_MS = LEASE_MS + PROBE_TIMEOUT_MS + 2_000;
/** Expired lease rows are removed this long after they ended. */
const STALE_ROWS = '1 hour';

interface State {
  db?: Database;
  /** Moves on whenever kept credentials may be stale: caches drop everything kept before. */
  generation: number;
  /** This process's lease row. */
  instanceId: string;
  /** Postgres: the listening connection is up and proved that notifications arrive. */
  listening: boolean;
  /** Moves on with every change of the listening connection (a renewal spans one connection). */
  connection: number;
  /** performance.now() until which this process may keep (0: no lease). */
  leaseUntil: number;
  renewing: boolean;
  registered: boolean;
  /** Highest barrier received, and whether its acknowledgement is being written. */
  seen: number;
  acking: boolean;
  probes: Map<string, () => void>;
  probeCount: number;
}

// Next and the fast path's bundle may each load this module: one state per process.
const state: State = processState<State>('db.cacheCoherence', () => ({
  generation: 0,
  instanceId: randomUUID(),
  listening: false,
  connection: 0,
  leaseUntil: 0,
  renewing: false,
  registered: false,
  seen: 0,
  acking: false,
  probes: new Map(),
  probeCount: 0,
}));

/** Everything kept so far may be stale. */
function forget(): void {
  state.generation++;
}

export const cacheGeneration = (): number => state.generation;

/** Whether a cache of credential lookups may be used now (and filled with what a lookup started now finds). */
export function cacheUsable(): boolean {
  const db = openedDatabase();
  if (!db) return false;
  if (state.db !== db) attach(db);
  // The embedded database has one web process: its own forgetting is enough (credentialsChanged).
  if (db.kind !== 'postgres' || !db.listen) return true;
  if (!state.listening) return false;
  const t = performance.now();
  if (t >= state.leaseUntil) {
    void renew(db);
    return false;
  }
  if (state.leaseUntil - t < (LEASE_MS - LEASE_MARGIN_MS) / 2) void renew(db);
  return true;
}

/** Follows the process database as it opens (and is replaced, in tests): listens on Postgres. */
function attach(db: Database): void {
  state.db = db;
  state.listening = false;
  state.connection++;
  state.leaseUntil = 0;
  state.registered = false;
  state.seen = 0;
  forget();
  if (db.kind !== 'postgres') return;
  db.listen?.(
    CHANNEL,
    (payload) => {
      if (state.db === db) received(db, payload);
    },
    (listening) => {
      if (state.db !== db) return;
      // Either way what is kept may be stale: before the first LISTEN, or across a dropped connection.
      forget();
      state.connection++;
      state.listening = listening;
      state.leaseUntil = 0;
      // No longer keeping: revoking requests need not wait for this lease to end.
      if (!listening && state.registered) void giveUp(db);
    },
  );
}

function received(db: Database, payload: string): void {
  const probe = state.probes.get(payload);
  if (probe) return probe();
  if (payload.startsWith('probe:')) return; // another process's
  forget();
  const barrier = payload.startsWith('barrier:') ? Number(payload.slice('barrier:'.length)) : 0;
  if (barrier > state.seen) {
    state.seen = barrier;
    void acknowledge(db);
  }
}

/** Writes the highest barrier seen into this process's lease row (one write at a time, the latest last). */
async function acknowledge(db: Database): Promise<void> {
  if (state.acking || !state.registered) return;
  state.acking = true;
  try {
    for (let written = 0; written < state.seen && state.db === db;) {
      const seen = state.seen;
      await db.sql.query('update credential_cache_leases set seen_barrier = greatest(seen_barrier, $2) where instance_id = $1', [
        state.instanceId,
        seen,
      ]);
      written = seen;
    }
  } catch (error) {
    // Unacknowledged, a revoking request waits for this lease to end instead.
    log.warn('credential cache acknowledgement failed', errorFields(error));
  } finally {
    state.acking = false;
  }
}

/** A probe through the pool; resolves with the database's time of it once it came back on the listening connection, else null. */
async function probe(db: Database): Promise<string | null> {
  const payload = `probe:${state.instanceId}:${++state.probeCount}`;
  let arrived = () => {};
  const back = new Promise<boolean>((resolve) => {
    arrived = () => resolve(true);
    setTimeout(() => resolve(false), PROBE_TIMEOUT_MS).unref();
  });
  state.probes.set(payload, arrived);
  try {
    const [row] = await db.sql.query<{ at: string }>('select pg_notify($1, $2), now()::text as at', [CHANNEL, payload]);
    return (await back) ? row.at : null;
  } finally {
    state.probes.delete(payload);
  }
}

/**
 * Renews this process's lease: a probe, then the lease row, lasting LEASE_MS from the probe's own
 * time in the database (however late the write lands), with the highest barrier seen.
 */
async function renew(db: Database): Promise<void> {
  if (state.renewing) return;
  state.renewing = true;
  const connection = state.connection;
  try {
    const sentAt = performance.now();
    const at = await probe(db);
    if (at === null || state.db !== db || state.connection !== connection) return;
    if (!state.registered) {
      await db.sql.query(`delete from credential_cache_leases where lease_until < now() - interval '${STALE_ROWS}'`);
      onShutdown(() => release(db));
    }
    const seen = state.seen;
    await db.sql.query(
      `insert into credential_cache_leases (instance_id, lease_until, seen_barrier)
       values ($1, $2::timestamptz + $3 * interval '1 millisecond', $4)
       on conflict (instance_id) do update
         set lease_until = greatest(credential_cache_leases.lease_until, excluded.lease_until),
             seen_barrier = greatest(credential_cache_leases.seen_barrier, excluded.seen_barrier)`,
      [state.instanceId, at, LEASE_MS, seen],
    );
    state.registered = true;
    // A barrier that came while the row was being written is acknowledged now.
    if (state.seen > seen) void acknowledge(db);
    if (state.db !== db || state.connection !== connection) return;
    // A lease that ended meanwhile: what was kept under it may be stale.
    if (performance.now() >= state.leaseUntil) forget();
    state.leaseUntil = sentAt + LEASE_MS - LEASE_MARGIN_MS;
  } catch (error) {
    log.warn('credential cache lease renewal failed', errorFields(error));
  } finally {
    state.renewing = false;
  }
}

/** A stopping process stops keeping and gives its lease up, so revoking requests do not wait for it. */
async function release(db: Database): Promise<void> {
  state.leaseUntil = 0;
  forget();
  if (state.db === db && state.registered) await giveUp(db);
}

/** Removes this process's lease row (it keeps nothing now; a later renewal writes it again). */
const giveUp = (db: Database) =>
  db.sql.query('delete from credential_cache_leases where instance_id = $1', [state.instanceId]).then(
    () => undefined,
    () => undefined,
  );

/**
 * Call after committing a change to what a credential lookup answers (a key revoked or rescoped, a
 * site deleted, a plan set), before answering: resolves once no process may still answer from what
 * it kept before the change.
 */
export async function credentialsChanged(): Promise<void> {
  forget();
  const db = await database();
  if (db.kind !== 'postgres') return;
  const [{ n }] = await db.sql.query<{ n: string }>(
    "select b.n::text as n, pg_notify($1, 'barrier:' || b.n) from (select nextval('credential_cache_barriers') as n) b",
    [CHANNEL],
  );
  const deadline = performance.now() + MAX_WAIT_MS;
  for (let pause = 1; ; pause = Math.min(pause * 2, 16)) {
    const [{ waiting }] = await db.sql.query<{ waiting: number }>(
      'select count(*)::int as waiting from credential_cache_leases where instance_id <> $1 and lease_until > now() and seen_barrier < $2',
      [state.instanceId, n],
    );
    if (waiting === 0) return;
    if (performance.now() > deadline) {
      log.error('credential change: processes neither acknowledged nor let their lease end', { waiting });
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}
