import { processState } from '@/lib/core/process-state';
import { openedDatabaseKind } from './client';
import { onPrimary } from './replica';

/**
 * Batches concurrent calls into few database round trips. Up to `concurrency` batches run at
 * once (round trips and commits overlap; Postgres itself groups concurrent WAL flushes); calls
 * made while they run wait and go together in the next one. A new batch starts on the next turn
 * of the event loop, so a lone call pays no added latency. Every caller gets its own result.
 *
 * Two uses:
 * - group commit: concurrent writes share one transaction (one WAL flush); each caller awaits
 *   the commit of its own batch, so nothing is acknowledged before it is durable;
 * - batched lookups: concurrent reads share one query. A call never joins a query that was
 *   already running when it was made, so it always sees every write committed before it
 *   (a revoked key is refused on the very next request).
 */
export interface Batcher<I, O> {
  submit(item: I): Promise<O>;
  /** Starts what is queued now (without waiting out `gatherMs`); resolves once every item submitted so far has settled. */
  flush(): Promise<void>;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export function batcher<I, O>(
  /** Handles the whole batch (one transaction or query); returns one result per item, in order. */
  run: (items: I[]) => Promise<O[]>,
  {
    maxBatch = 500,
    concurrency = 4,
    gatherMs = 0,
  }: {
    maxBatch?: number;
    /** Batches in flight at once; a function is asked again each time a batch could start. */
    concurrency?: number | (() => number);
    /**
     * How long a batch gathers before it starts (default 0: the next turn of the event loop).
     * Only for writes nobody waits on: fewer, larger transactions for the same items.
     */
    gatherMs?: number;
  } = {},
): Batcher<I, O> {
  const limit = typeof concurrency === 'function' ? concurrency : () => concurrency;
  let queue: Pending<I, O>[] = [];
  let running = 0;
  let scheduled = false;
  let gathering: NodeJS.Timeout | undefined;
  const inFlight = new Set<Promise<void>>();
  // A batch serves callers of every kind (a write's among them): on the primary, even when the
  // call that started it was an analytics read on the read replica.
  const runItems = (items: I[]) => onPrimary(() => run(items));

  async function runBatch(batch: Pending<I, O>[]): Promise<void> {
    try {
      const results = await runItems(batch.map((p) => p.item));
      batch.forEach((p, i) => p.resolve(results[i]));
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      // One bad item must not fail its neighbours: retry each alone.
      else for (const p of batch) await runItems([p.item]).then(([r]) => p.resolve(r), p.reject);
    }
  }

  function startBatches(): void {
    scheduled = false;
    if (gathering) clearTimeout(gathering);
    gathering = undefined;
    while (queue.length && running < limit()) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      running++;
      const done: Promise<void> = runBatch(batch).finally(() => {
        running--;
        inFlight.delete(done);
        schedule();
      });
      inFlight.add(done);
    }
  }

  function schedule(): void {
    if (scheduled || !queue.length || running >= limit()) return;
    scheduled = true;
    if (gatherMs > 0 && queue.length < maxBatch) {
      gathering = setTimeout(startBatches, gatherMs);
      gathering.unref();
    } else setImmediate(startBatches);
  }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (gathering && queue.length >= maxBatch) startBatches();
        else schedule();
      });
    },
    async flush() {
      while (queue.length || inFlight.size) {
        if (queue.length && running < limit()) startBatches();
        await Promise.race(inFlight);
      }
    },
  };
}

/**
 * Batches in flight at once against the process database. PGlite (in this process or, from the web
 * process, behind the embedded socket) is one backend that runs one query at a time: batches in
 * flight would only queue behind each other, each taken while still small, so one at a time lets
 * the next batch gather everything that arrives meanwhile (fewer, larger statements). Postgres runs
 * them on separate pool connections: two in flight, so one batch's commit overlaps the next one's
 * work, while each still gathers what arrived meanwhile. A statement's fixed cost (planning, the
 * round trip, the commit) is most of a small batch's: measured on Postgres, an event costs its
 * backend ~1 ms of CPU alone in its statement, ~140 µs in a batch of 10 and ~70 µs in one of 25.
 */
const databaseConcurrency = () => (openedDatabaseKind() === 'pglite' ? 1 : 2);

/** One batcher per process and name: Next may load a module more than once. */
export function sharedBatcher<I, O>(
  name: string,
  run: (items: I[]) => Promise<O[]>,
  o: { maxBatch?: number; concurrency?: number; gatherMs?: number } = {},
): Batcher<I, O> {
  return processState(`db.batcher.${name}`, () => batcher(run, { concurrency: databaseConcurrency, ...o }));
}
