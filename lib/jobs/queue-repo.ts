import PgBoss from 'pg-boss';
import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import { database, executorOf, onDatabaseOpened, type Database, type Db } from '@/lib/db/client';
import { JOB_SCHEMA } from './define';

/**
 * The job tables (pg-boss's schema in the app database): every statement on them goes through this
 * file — pg-boss's client, and the few statements of ours (a queue created with the caller's
 * transaction, a running job's expiry renewed, an attempt completed with the handler's transaction).
 */
const holder = processState<{ client?: Promise<PgBoss> }>('jobs.queueClient', () => ({}));

/** A pg-boss instance on the process database; `work` adds the worker's duties (maintenance, schedules). */
export async function newQueueClient(work?: { maintenanceIntervalSeconds: number }, on?: Database): Promise<PgBoss> {
  const db = on ?? (await database());
  const boss = new PgBoss({
    db: { executeSql: (text, values) => db.executeSql(text, values) },
    schema: JOB_SCHEMA,
    supervise: Boolean(work),
    schedule: Boolean(work),
    ...(work ? { maintenanceIntervalSeconds: work.maintenanceIntervalSeconds, cronMonitorIntervalSeconds: 10 } : {}),
  });
  boss.on('error', (error) => log.error('job queue error', errorFields(error)));
  await boss.start();
  return boss;
}

/** This process's sending client (started when the database opens, so a job can be written inside any transaction). */
export function queueClient(on?: Database): Promise<PgBoss> {
  holder.client ??= newQueueClient(undefined, on).catch((error) => {
    holder.client = undefined;
    throw error;
  });
  return holder.client;
}

onDatabaseOpened((db) => queueClient(db));

/** Stops and drops this process's sending client (tests, shutdown): the database it used is closing. */
export async function stopQueueClient(): Promise<void> {
  const client = holder.client;
  holder.client = undefined;
  const boss = await client?.catch(() => undefined);
  await boss?.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
}

/** pg-boss's send options for a write with the caller's transaction `tx` (none without one). */
export const withTransaction = (tx?: Db): { db?: ReturnType<typeof executorOf> } => (tx ? { db: executorOf(tx) } : {});

/** Creates the queue with the caller's transaction (idempotent). */
export async function createQueueWith(tx: Db, name: string, settings: Record<string, unknown>): Promise<void> {
  await executorOf(tx).executeSql(`select ${JOB_SCHEMA}.create_queue($1, $2::json)`, [name, JSON.stringify(settings)]);
}

/** Keeps an active job's expiry `seconds` ahead of it; false once the job is no longer active (expired by maintenance, cancelled). */
export async function renewJob(queue: string, id: string, seconds: number): Promise<boolean> {
  const db = await database();
  const { rows } = await db.executeSql(
    `update ${JOB_SCHEMA}.job set expire_in = (now() - started_on) + make_interval(secs => $3) where name = $1 and id = $2 and state = 'active' returning id`,
    [queue, id, seconds],
  );
  return rows.length > 0;
}

/**
 * What pg-boss's `complete` writes, for one attempt of one job, with the handler's transaction: a
 * job this worker lost and another worker now runs again (the same id, a higher retry count) is not it.
 */
const COMPLETE = `update ${JOB_SCHEMA}.job set completed_on = now(), state = 'completed' where name = $1 and id = $2 and state = 'active' and retry_count = $3`;

/** Completes one attempt of a job with `tx`, the handler's transaction. */
export async function completeJobWith(tx: Db, queue: string, id: string, retryCount: number): Promise<void> {
  await executorOf(tx).executeSql(COMPLETE, [queue, id, retryCount]);
}
