import { describe, expect, it } from 'vitest';
import { MemoryRateLimiter } from '@/lib/ratelimit/memory';

const MINUTE = 60_000;

describe('MemoryRateLimiter', () => {
  it('allows `limit` requests per window, refuses the next, and starts over in the next window', async () => {
    let now = 10 * MINUTE + 5_000;
    const limiter = new MemoryRateLimiter(() => now);
    const window = { limit: 3, windowMs: MINUTE };
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.limit('a', window));
    expect(results.map((r) => [r.success, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(results[3]).toMatchObject({ limit: 3, reset: 11 * MINUTE });
    expect(await limiter.limit('b', window)).toMatchObject({ success: true, remaining: 2 }); // identifiers are separate
    now = 11 * MINUTE;
    expect(await limiter.limit('a', window)).toMatchObject({ success: true, remaining: 2, reset: 12 * MINUTE });
  });

  it('peeks without counting', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    const window = { limit: 2, windowMs: MINUTE };
    await limiter.limit('a', window);
    expect(await limiter.peek('a', window)).toMatchObject({ success: true, remaining: 1 });
    expect(await limiter.peek('a', window)).toMatchObject({ success: true, remaining: 1 });
    await limiter.limit('a', window);
    expect(await limiter.peek('a', window)).toMatchObject({ success: false, remaining: 0 });
  });

  it('holds at most `max` slots; a release (idempotent) frees exactly one', async () => {
    const limiter = new MemoryRateLimiter();
    const a = await limiter.acquire('s', 2);
    const b = await limiter.acquire('s', 2);
    expect(a && b).toBeTruthy();
    expect(await limiter.acquire('s', 2)).toBeNull();
    a!.release();
    a!.release();
    const c = await limiter.acquire('s', 2);
    expect(c).not.toBeNull();
    expect(await limiter.acquire('s', 2)).toBeNull();
    b!.release();
    c!.release();
    expect(await limiter.acquire('s', 2)).not.toBeNull();
  });
});
