/**
 * Group commit: writes submitted while a batch is being committed wait and go together in the
 * next one, so many concurrent requests share one transaction (one WAL flush) instead of
 * queueing for one each. Every caller awaits the commit of its own batch, so nothing is
 * acknowledged before it is durable. There is no timer: an idle batcher flushes on the next
 * turn of the event loop, so a lone write pays no added latency.
 */
export interface GroupCommit<I, O> {
  submit(item: I): Promise<O>;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (error: unknown) => void;
}

export function groupCommit<I, O>(
  /** Writes the batch in one transaction; returns one result per item, in order. */
  write: (items: I[]) => Promise<O[]>,
  maxBatch = 500,
): GroupCommit<I, O> {
  let queue: Pending<I, O>[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    while (queue.length) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const results = await write(batch.map((p) => p.item));
        batch.forEach((p, i) => p.resolve(results[i]));
      } catch (error) {
        if (batch.length === 1) batch[0].reject(error);
        // One bad item must not fail its neighbours: retry each alone.
        else for (const p of batch) await write([p.item]).then(([r]) => p.resolve(r), p.reject);
      }
    }
    running = false;
  }

  return {
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (!running) {
          running = true;
          setImmediate(() => void drain());
        }
      });
    },
  };
}
