import type PgBoss from 'pg-boss';
import { errorFields, log } from '@/lib/core/log';
import {
  exhaustedQueueName,
  optionsOf,
  siteQueueName,
  type BackgroundJob,
  type JobContext,
  type JobQueue,
  type ScheduleDefinition,
  type SiteScheduleDefinition,
} from './define';
import { ensureQueue, enqueueAll, onEnqueued, queueSettings } from './queue';
import { completeJobWith, newQueueClient, renewJob } from './queue-repo';

/**
 * Works the queues: the one place background work runs. For each queue, up to `concurrency`
 * jobs at once; an idle queue is looked at every `pollSeconds`, or at once when this process
 * (or the web process that started this worker) sends it a job.
 *
 * Crash and retry, for every job alike: while a job runs, its expiry is kept ahead of it (one
 * statement every third of `expireInSeconds`), so a slow job is never taken from a live worker.
 * A worker that dies stops renewing; pg-boss's maintenance fails the job once its expiry passed,
 * and it runs again after its retry delay. A job that failed for good goes to its `exhausted`
 * handler (a dead-letter queue), so no job is dropped without a trace.
 */
export interface JobWorker {
  /** Wakes a queue's loop (a job was just sent to it). */
  wake(queue: string): void;
  /** Stops taking jobs and waits (up to `graceMs`) for those in flight; the rest are retried elsewhere. */
  stop(graceMs?: number): Promise<void>;
}

interface Lane {
  name: string;
  concurrency: number;
  pollMs: number;
  expireInSeconds: number;
  handle(data: unknown, ctx: JobContext): Promise<void>;
}

const sleep = (ms: number, wake: { fn?: () => void }, stopped: () => boolean) =>
  new Promise<void>((resolve) => {
    if (stopped()) return resolve();
    const timer = setTimeout(resolve, ms);
    wake.fn = () => {
      clearTimeout(timer);
      resolve();
    };
  });

function lanesOf(jobs: BackgroundJob[]): { lanes: Lane[]; schedules: ScheduleDefinition[]; siteSchedules: SiteScheduleDefinition[] } {
  const lanes: Lane[] = [];
  const schedules: ScheduleDefinition[] = [];
  const siteSchedules: SiteScheduleDefinition[] = [];
  const lane = (queue: { name: string; options?: JobQueue<unknown>['options'] }, handle: Lane['handle']) => {
    const o = optionsOf(queue);
    lanes.push({ name: queue.name, concurrency: o.concurrency, pollMs: o.pollSeconds * 1000, expireInSeconds: o.expireInSeconds, handle });
  };
  for (const job of jobs) {
    if (job.kind === 'job') {
      lane(job, (data, ctx) => job.run(data, ctx));
      const exhausted = job.exhausted;
      if (exhausted)
        lane({ name: exhaustedQueueName(job), options: () => ({ retryLimit: 5, expireInSeconds: 60 }) }, (data) =>
          exhausted(data, 'its attempts ran out'),
        );
    } else if (job.kind === 'schedule') {
      schedules.push(job);
      lane(job, (_data, ctx) => job.run(ctx));
    } else {
      siteSchedules.push(job);
      // The tick: each site's job at most once per window of its interval.
      lane({ name: job.name, options: () => ({ retryLimit: 0, expireInSeconds: 120 }) }, async () => {
        const sites = await job.sites();
        await enqueueAll(
          { name: siteQueueName(job), options: job.options },
          sites.map((s) => ({ data: { siteId: s.siteId }, singletonKey: s.siteId, singletonSeconds: (s.everyMinutes ?? job.everyMinutes) * 60 })),
        );
      });
      lane({ name: siteQueueName(job), options: job.options }, (data, ctx) => job.run((data as { siteId: string }).siteId, ctx));
    }
  }
  return { lanes, schedules, siteSchedules };
}

async function createQueues(boss: PgBoss, jobs: BackgroundJob[]): Promise<void> {
  for (const job of jobs) {
    if (job.kind === 'job') {
      if (job.exhausted) await ensureQueue({ name: exhaustedQueueName(job), options: () => ({ retryLimit: 5, expireInSeconds: 60 }) });
      await ensureQueue(job, job.exhausted ? { deadLetter: exhaustedQueueName(job) } : {});
    } else if (job.kind === 'schedule') {
      await ensureQueue(job);
      await boss.schedule(job.name, job.cron, {}, { tz: 'UTC', ...queueSettings(optionsOf(job)) });
    } else {
      await ensureQueue({ name: job.name, options: () => ({ retryLimit: 0, expireInSeconds: 120 }) });
      await ensureQueue({ name: siteQueueName(job), options: job.options });
      await boss.schedule(job.name, '* * * * *', {}, { tz: 'UTC' });
    }
  }
}

/** Starts working every queue of `jobs` in this process. */
export async function startJobWorker(jobs: BackgroundJob[], o: { maintenanceIntervalSeconds?: number } = {}): Promise<JobWorker> {
  const { lanes } = lanesOf(jobs);
  const shortest = Math.min(...lanes.map((l) => l.expireInSeconds));
  // Expired jobs (dead workers) are found this often: at most half the shortest expiry, 1–60 s.
  const boss = await newQueueClient({
    maintenanceIntervalSeconds: o.maintenanceIntervalSeconds ?? Math.min(60, Math.max(1, Math.floor(shortest / 2))),
  });
  await createQueues(boss, jobs);

  let stopping = false;
  const stopAll = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const wakers = new Map<string, { fn?: () => void; kicked?: boolean }>();

  const runJob = (lane: Lane, job: PgBoss.JobWithMetadata<unknown>, slots: { free: number }, wake: () => void) => {
    const lost = new AbortController();
    const signal = AbortSignal.any([lost.signal, stopAll.signal]);
    const heartbeat = setInterval(
      () =>
        void renewJob(lane.name, job.id, lane.expireInSeconds)
          .then((held) => held || lost.abort(new Error('the job is no longer this worker’s')))
          .catch((error) => log.warn('job expiry not renewed', { queue: lane.name, job_id: job.id, ...errorFields(error) })),
      Math.max(500, (lane.expireInSeconds * 1000) / 3),
    );
    heartbeat.unref?.();
    let completed = false;
    const ctx: JobContext = {
      id: job.id,
      attempt: job.retryCount,
      retryLimit: job.retryLimit,
      signal,
      async completeWith(tx) {
        await completeJobWith(tx, lane.name, job.id, job.retryCount);
        completed = true;
      },
    };
    const done = (async () => {
      try {
        await lane.handle(job.data, ctx);
        // Completed by the handler's own transaction (it committed: the handler returned).
        if (!lost.signal.aborted && !completed) await boss.complete(lane.name, job.id);
      } catch (error) {
        if (lost.signal.aborted) return;
        log.warn('background job failed', { queue: lane.name, job_id: job.id, attempt: job.retryCount + 1, ...errorFields(error) });
        await boss
          .fail(lane.name, job.id, { message: error instanceof Error ? error.message : String(error) })
          .catch((e) => log.error('background job failure not recorded', { queue: lane.name, job_id: job.id, ...errorFields(e) }));
      }
    })().finally(() => {
      clearInterval(heartbeat);
      slots.free++;
      inFlight.delete(done);
      wake();
    });
    inFlight.add(done);
  };

  const loop = async (lane: Lane) => {
    const waker: { fn?: () => void; kicked?: boolean } = {};
    wakers.set(lane.name, waker);
    const slots = { free: lane.concurrency };
    const wake = () => {
      waker.kicked = true;
      waker.fn?.();
    };
    while (!stopping) {
      waker.kicked = false;
      if (slots.free > 0) {
        try {
          const jobs = ((await boss.fetch(lane.name, { batchSize: slots.free, includeMetadata: true })) ?? []) as PgBoss.JobWithMetadata<unknown>[];
          for (const job of jobs) {
            slots.free--;
            runJob(lane, job, slots, wake);
          }
          if (jobs.length > 0 && slots.free > 0) continue;
        } catch (error) {
          if (!stopping) log.error('job fetch failed', { queue: lane.name, ...errorFields(error) });
        }
      }
      if (waker.kicked) continue;
      await sleep(lane.pollMs, waker, () => stopping);
      waker.fn = undefined;
    }
  };

  const loops = lanes.map(loop);
  const wakeQueue = (queue: string) => {
    const w = wakers.get(queue);
    if (w) {
      w.kicked = true;
      w.fn?.();
    }
  };
  const unlisten = onEnqueued(wakeQueue);
  log.info('background jobs started', { queues: lanes.map((l) => l.name) });

  return {
    wake: wakeQueue,
    async stop(graceMs = 10_000) {
      if (stopping) return;
      stopping = true;
      unlisten();
      for (const w of wakers.values()) w.fn?.();
      await Promise.all(loops);
      const drained = Promise.all([...inFlight]);
      const timer = new Promise((r) => setTimeout(r, graceMs).unref?.());
      await Promise.race([drained, timer]);
      // Jobs still running are abandoned: their expiry lapses and another worker retries them.
      stopAll.abort(new Error('the worker is stopping'));
      await boss.stop({ graceful: false, close: false, wait: true }).catch(() => undefined);
    },
  };
}
