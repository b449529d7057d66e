import { errorFields, log } from '@/lib/core/log';
import { processState } from '@/lib/core/process-state';
import type { Db } from '@/lib/db/client';
import { optionsOf, type JobOptions, type JobQueue } from './define';
import { createQueueWith, queueClient, stopQueueClient, withTransaction } from './queue-repo';

/**
 * Sending jobs: the one way anything is queued for later. Every process that sends (the web
 * process, the worker, scripts) holds one pg-boss client on the app database that only sends —
 * no polling, no maintenance, no timers; the worker process (`./worker.ts`) works the queues.
 *
 * `enqueue(job, data, { tx })` writes the job with the caller's transaction: it exists exactly
 * when the change that asked for it commits (a delivery with its event, a run with its record).
 */
export interface EnqueueOptions {
  /** The caller's transaction: the job is written with it (and rolls back with it). */
  tx?: Db;
  /** Not before this time. */
  startAfter?: Date;
  /** With `singletonSeconds`: at most one job of this key per window of that many seconds. */
  singletonKey?: string;
  singletonSeconds?: number;
}

type State = {
  queues: Map<string, Promise<void>>;
  listeners: Set<(queue: string) => void>;
  /** Queues announced and not yet told: many jobs sent within the same few milliseconds make one hint per queue. */
  announced: Set<string>;
};
const state: State = processState<State>('jobs.queue', () => ({ queues: new Map(), listeners: new Set(), announced: new Set() }));

export const queueSettings = (options: Required<JobOptions>) => ({
  retryLimit: options.retryLimit,
  retryDelay: options.retryDelaySeconds,
  retryBackoff: true,
  expireInSeconds: options.expireInSeconds,
});

/** Creates the queue once per process (idempotent across processes); its retry and expiry settings apply to every job sent to it. */
export function ensureQueue(queue: JobQueue<unknown>, extra: { deadLetter?: string } = {}): Promise<void> {
  let ready = state.queues.get(queue.name);
  if (!ready) {
    ready = (async () => {
      const boss = await queueClient();
      const settings = { ...queueSettings(optionsOf(queue)), ...extra };
      await boss.createQueue(queue.name, { name: queue.name, ...settings });
      if (extra.deadLetter) await boss.updateQueue(queue.name, { name: queue.name, ...settings });
    })().catch((error) => {
      state.queues.delete(queue.name);
      throw error;
    });
    state.queues.set(queue.name, ready);
  }
  return ready;
}

/**
 * Inside a transaction nothing else may wait on the database (PGlite is one connection): a queue
 * this process has not created yet is created with the transaction itself (idempotent), and once
 * more outside it, unawaited, so that the next jobs of this queue skip the step (the transaction
 * may still roll back, so its own creation is not trusted for that).
 */
async function queueReady(queue: JobQueue<unknown>, tx?: Db): Promise<void> {
  if (!tx) return ensureQueue(queue);
  if (state.queues.has(queue.name)) return;
  await createQueueWith(tx, queue.name, queueSettings(optionsOf(queue)));
  void ensureQueue(queue).catch((error) => log.warn('job queue not created', { queue: queue.name, ...errorFields(error) }));
}

/** Queues one job; answers its id (null when a singleton window already holds one). */
export async function enqueue<D>(queue: JobQueue<D>, data: D, o: EnqueueOptions = {}): Promise<string | null> {
  const boss = await queueClient();
  await queueReady(queue, o.tx);
  const id = await boss.send(queue.name, (data ?? {}) as object, {
    ...(o.startAfter ? { startAfter: o.startAfter } : {}),
    ...(o.singletonKey ? { singletonKey: o.singletonKey } : {}),
    ...(o.singletonSeconds ? { singletonSeconds: o.singletonSeconds } : {}),
    ...withTransaction(o.tx),
  });
  announce(queue.name);
  return id;
}

/** Queues several jobs of one queue in one statement. */
export async function enqueueAll<D>(
  queue: JobQueue<D>,
  items: { data: D; startAfter?: Date; singletonKey?: string; singletonSeconds?: number }[],
  o: { tx?: Db } = {},
): Promise<void> {
  if (items.length === 0) return;
  const boss = await queueClient();
  await queueReady(queue, o.tx);
  await boss.insert(
    items.map((i) => ({
      name: queue.name,
      data: (i.data ?? {}) as object,
      ...(i.startAfter ? { startAfter: i.startAfter.toISOString() } : {}),
      ...(i.singletonKey ? { singletonKey: i.singletonKey } : {}),
      ...(i.singletonSeconds ? { singletonSeconds: i.singletonSeconds } : {}),
    })) as never,
    withTransaction(o.tx),
  );
  announce(queue.name);
}

/**
 * Hears the queues this process sends to: a worker in the same process (tests) or the web
 * process's worker child (over IPC) starts the job now instead of at its next poll. A hint
 * only: the job may not be committed yet, and the worker's poll finds it anyway.
 */
export function onEnqueued(listener: (queue: string) => void): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

function announce(queue: string): void {
  if (state.listeners.size === 0 || state.announced.has(queue)) return;
  state.announced.add(queue);
  // After the caller's transaction has most likely committed.
  setTimeout(() => {
    state.announced.delete(queue);
    state.listeners.forEach((l) => l(queue));
  }, 5).unref?.();
}

/** Drops this process's client (tests, shutdown): the database it used is closing. */
export async function closeQueueClient(): Promise<void> {
  state.queues.clear();
  await stopQueueClient();
}
