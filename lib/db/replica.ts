import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { getDb, readReplica, type Db } from './client';

/**
 * Reads that may answer from the read replica (DATABASE_READ_URL): the analytics reads. Inside
 * `onReadReplica`, every statement sent without a database of its own (`rows` of ./raw.ts) goes to
 * the replica; everything else — writes, a read right after a write, the realtime view, credential
 * checks — stays on the primary. Without a replica, reads run on the primary as any statement does.
 *
 * The replica may be behind the primary by its replay lag: what a read answers is as of the replica.
 * A read runs on one database from start to end, so its figures are consistent with each other.
 *
 * A replica that cannot answer (refuses or drops connections, does not connect within 2 s, is
 * shutting down, cancels a statement in conflict with replay) is not an outage: the read is run
 * again, whole, on the primary, the replica is left alone for REPLICA_RETRY_MS, and a warning is
 * logged at most once per WARN_EVERY_MS. Any other error is the read's own and is thrown as is.
 */
const REPLICA_RETRY_MS = 30_000;
const WARN_EVERY_MS = 60_000;

interface State {
  /** The database of the read running in this async context. */
  scope: AsyncLocalStorage<Db>;
  /** performance.now() until which reads skip the replica. */
  downUntil: number;
  /** performance.now() of the last warning (-Infinity: none yet). */
  warnedAt: number;
  /** Reads answered by the primary instead since the last warning. */
  fallbacks: number;
}

const state = processState<State>('db.readReplica', () => ({
  scope: new AsyncLocalStorage<Db>(),
  downUntil: 0,
  warnedAt: -Infinity,
  fallbacks: 0,
}));

/** The database of a statement sent without one: the read replica inside `onReadReplica`, else the process database. */
export function statementDb(): Db | Promise<Db> {
  return state.scope.getStore() ?? getDb();
}

/** Runs `read` (statements only, no writes) on the read replica when one is configured and answers; else on the primary. */
export async function onReadReplica<T>(read: () => Promise<T>): Promise<T> {
  // A read inside another stays on the database the outer one chose.
  if (state.scope.getStore()) return read();
  const replica = readReplica();
  if (!replica) return read();
  if (performance.now() < state.downUntil) {
    fellBack();
    return read();
  }
  try {
    const { db } = await replica;
    return await state.scope.run(db, read);
  } catch (error) {
    if (!replicaUnavailable(error)) throw error;
    state.downUntil = performance.now() + REPLICA_RETRY_MS;
    fellBack(error);
    return read();
  }
}

/** Runs `fn` with its statements on the primary, inside a read on the replica too (work shared with other callers). */
export function onPrimary<T>(fn: () => T): T {
  return state.scope.exit(fn);
}

/** `read` as a function that runs on the read replica (see `onReadReplica`). */
export function readingFromReplica<A extends unknown[], T>(read: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  return (...args) => onReadReplica(() => read(...args));
}

function fellBack(error?: unknown): void {
  state.fallbacks++;
  const t = performance.now();
  if (t - state.warnedAt < WARN_EVERY_MS) return;
  log.warn('analytics read replica unavailable: reading from the primary', {
    reads_on_primary: state.fallbacks,
    replica_retry_in_ms: Math.max(0, Math.round(state.downUntil - t)),
    ...(error ? errorFields(error) : {}),
  });
  state.warnedAt = t;
  state.fallbacks = 0;
}

/** Socket errors of a connection that could not be made or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);
/**
 * SQL states of a server that cannot serve: shutting down or starting (57P01–57P03), out of
 * connections (53300), a statement cancelled by a conflict with the replay of the primary's changes
 * (40001 on a standby, where reads run in no serializable transaction), the role or database missing.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300', '40001', '3D000']);
/** pg and pg-pool say so in words only: a connection that timed out or ended under a query. */
const LOST = /^(Connection terminated|timeout exceeded when trying to connect)/;

/** Whether `error` (or an error it wraps: the query layer wraps the driver's) says the replica could not answer. */
export function replicaUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (SOCKET_CODES.has(code) || SERVER_CODES.has(code) || code.startsWith('08') || code.startsWith('28'))) return true;
    if (LOST.test(e.message)) return true;
  }
  return false;
}
