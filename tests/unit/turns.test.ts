import { describe, expect, it } from 'vitest';
import { inTurns } from '@/lib/http/turns.mjs';

const spin = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end);
};
/** Resolves after the event loop's next check phase, where the scheduled starts run. */
const turns = (n: number) => new Promise<void>((resolve) => (n === 0 ? resolve() : setImmediate(() => void turns(n - 1).then(resolve))));

describe('requests started in event-loop turns', () => {
  it('start every request, in the order they arrived', async () => {
    const order: string[] = [];
    const start = inTurns<string, null>((req) => order.push(req), 10_000);
    for (const req of ['a', 'b', 'c', 'd']) start(req, null);
    expect(order).toEqual([]); // never inside the call that hands the request over
    await turns(2);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
  });

  it('within one turn while the budget lasts', async () => {
    const order: string[] = [];
    const start = inTurns<string, null>((req) => order.push(req), 10_000);
    start('a', null);
    start('b', null);
    setImmediate(() => order.push('next callback'));
    await turns(3);
    expect(order).toEqual(['a', 'b', 'next callback']);
  });

  it('move the rest to later turns once a turn has spent its budget, so other callbacks run in between', async () => {
    const order: string[] = [];
    // Each request's work outlasts the budget: one request per turn.
    const start = inTurns<string, null>((req) => {
      order.push(req);
      spin(60);
    }, 50);
    start('a', null);
    start('b', null);
    start('c', null);
    setImmediate(() => order.push('other'));
    await turns(6);
    expect(order).toEqual(['a', 'other', 'b', 'c']);
  });

  it('start the work that microtasks continue before the budget is checked again', async () => {
    const order: string[] = [];
    const start = inTurns<string, null>(async (req) => {
      order.push(`${req} begins`);
      await Promise.resolve();
      spin(60);
      order.push(`${req} continues`);
    }, 50);
    start('a', null);
    start('b', null);
    setImmediate(() => order.push('other'));
    await turns(6);
    expect(order).toEqual(['a begins', 'a continues', 'other', 'b begins', 'b continues']);
  });
});
