import { afterAll, afterEach, vi } from 'vitest';
import { resetConfig } from '@/lib/core/config';

/**
 * Switches the rate limiter on for the importing test file (the test environment runs with
 * RATE_LIMIT_BACKEND=none), with optional extra settings; restored after the file. Call at the
 * top level, before the first request.
 */
export function useRateLimits(env: Record<string, string> = {}): void {
  const settings = { RATE_LIMIT_BACKEND: 'memory', ...env };
  const previous = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]));
  Object.assign(process.env, settings);
  resetConfig();
  afterAll(() => {
    for (const [k, v] of Object.entries(previous)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
  });
}

/**
 * The limiter's windows follow `Date`: the returned `setNow(t)` fakes `Date` at `t` (epoch ms),
 * and moves it when called again within the test; real timers are back after each test. Call at
 * the top level or in a describe, like the hooks it registers.
 */
export function limiterClock(): (t: number) => void {
  afterEach(() => {
    vi.useRealTimers();
  });
  return (t) => {
    if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(t);
  };
}
