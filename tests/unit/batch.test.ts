import { describe, expect, it } from 'vitest';
import { batcher } from '@/lib/db/batch';

describe('batcher', () => {
  it('groups calls made together, and calls made during a running batch go to a later one', async () => {
    const batches: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const b = batcher(
      async (items: number[]) => {
        batches.push(items);
        if (batches.length === 1) await gate;
        return items.map((i) => i * 10);
      },
      { concurrency: 1 },
    );
    const first = [b.submit(1), b.submit(2), b.submit(3)];
    await new Promise((r) => setImmediate(r));
    const later = [b.submit(4), b.submit(5)];
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1, 2, 3]]); // 4 and 5 wait: they never join the batch already running
    release();
    expect(await Promise.all([...first, ...later])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('a failing item does not fail its neighbours', async () => {
    const b = batcher(async (items: number[]) => {
      if (items.includes(2)) throw new Error('bad item');
      return items;
    });
    const results = await Promise.allSettled([b.submit(1), b.submit(2), b.submit(3)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('a gathering batch waits for more items until it is full or flushed, and flush waits for every batch', async () => {
    const batches: number[][] = [];
    const b = batcher(
      async (items: number[]) => {
        batches.push(items);
        return items;
      },
      { concurrency: 1, maxBatch: 3, gatherMs: 3_600_000 },
    );
    const full = [b.submit(1), b.submit(2), b.submit(3)];
    expect(await Promise.all(full)).toEqual([1, 2, 3]); // a full batch does not wait out the hour
    const rest = [b.submit(4), b.submit(5)];
    await new Promise((r) => setImmediate(r));
    expect(batches).toEqual([[1, 2, 3]]); // still gathering
    await b.flush();
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(await Promise.all(rest)).toEqual([4, 5]);
    await b.flush(); // nothing queued: resolves at once
  });
});
