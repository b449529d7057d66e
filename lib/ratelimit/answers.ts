import { ApiError } from '@/lib/core/errors';
import type { LimitResult } from './port';

/**
 * X-RateLimit-Limit: requests allowed in the window; X-RateLimit-Remaining: left in it;
 * X-RateLimit-Reset: when it ends, in Unix epoch SECONDS (as GitHub and most APIs do).
 */
export function rateLimitHeaders(result: LimitResult): Record<string, string> {
  return {
    'x-ratelimit-limit': String(result.limit),
    'x-ratelimit-remaining': String(result.remaining),
    'x-ratelimit-reset': String(Math.ceil(result.reset / 1000)),
  };
}

/** Whole seconds until the window ends, at least 1. */
export const retryAfterSeconds = (reset: number, now = Date.now()) => Math.max(1, Math.ceil((reset - now) / 1000));

/** 429 RATE_LIMITED with Retry-After (seconds) and the window's headers. */
export function rateLimited(result: LimitResult, message: string): ApiError {
  const retryAfter = retryAfterSeconds(result.reset);
  return new ApiError(
    'RATE_LIMITED',
    message,
    { limit: result.limit, retry_after: retryAfter },
    {
      ...rateLimitHeaders(result),
      'retry-after': String(retryAfter),
    },
  );
}
