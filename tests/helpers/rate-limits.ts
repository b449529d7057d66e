import { afterAll } from 'vitest';
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
