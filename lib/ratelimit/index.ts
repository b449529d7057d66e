import { config, type Config } from '@/lib/core/config';
import { defineProvider, provider } from '@/lib/core/providers';
import { MemoryRateLimiter } from './memory';
import type { RateLimiter } from './port';
import { UpstashRateLimiter } from './upstash';

export type { LimitResult, RateLimiter, Slot } from './port';

declare module '@/lib/core/providers' {
  interface ProviderMap {
    /** null when limits are switched off (`RATE_LIMIT_BACKEND=none`). */
    rateLimiter: RateLimiter | null;
  }
}

defineProvider('rateLimiter', () => {
  const c = config();
  if (c.RATE_LIMIT_BACKEND === 'none') return null;
  if (c.RATE_LIMIT_BACKEND === 'upstash') {
    return new UpstashRateLimiter({ url: c.UPSTASH_REDIS_REST_URL!, token: c.UPSTASH_REDIS_REST_TOKEN!, prefix: c.RATE_LIMIT_PREFIX });
  }
  return new MemoryRateLimiter();
});

/** The configured limiter (RATE_LIMIT_BACKEND), or null when limits are switched off (`none`). */
export const rateLimiter = (): RateLimiter | null => provider('rateLimiter');

/**
 * What an operator should know at start: the in-process limiter counts per instance, so beside a
 * shared database (several instances) each client gets every instance's allowance.
 */
export function limiterWarning(c: Pick<Config, 'RATE_LIMIT_BACKEND' | 'DATABASE_URL'> = config()): string | undefined {
  if (c.RATE_LIMIT_BACKEND !== 'memory' || !c.DATABASE_URL) return undefined;
  return 'RATE_LIMIT_BACKEND=memory counts requests per instance: with several instances on DATABASE_URL, each allows the full limits; set RATE_LIMIT_BACKEND=upstash to share the counts';
}
