import { config } from '@/lib/core/config';
import { MemoryRateLimiter } from './memory';
import type { RateLimiter } from './port';
import { UpstashRateLimiter } from './upstash';

export type { LimitResult, LimitWindow, RateLimiter, Slot } from './port';

let chosen: { backend: string; limiter: RateLimiter | null } | undefined;

/** The configured limiter (RATE_LIMIT_BACKEND), or null when limits are switched off (`none`). */
export function rateLimiter(): RateLimiter | null {
  const c = config();
  if (chosen?.backend !== c.RATE_LIMIT_BACKEND) {
    chosen = {
      backend: c.RATE_LIMIT_BACKEND,
      limiter:
        c.RATE_LIMIT_BACKEND === 'none'
          ? null
          : c.RATE_LIMIT_BACKEND === 'upstash'
            ? new UpstashRateLimiter({ url: c.UPSTASH_REDIS_REST_URL!, token: c.UPSTASH_REDIS_REST_TOKEN!, prefix: c.RATE_LIMIT_PREFIX })
            : new MemoryRateLimiter(),
    };
  }
  return chosen.limiter;
}
