import { ApiError } from '@/lib/core/errors';
import type { Principal } from '@/lib/core/principal';
import { rateLimiter, type LimitResult, type Slot } from '@/lib/ratelimit';
import { rateLimited, rateLimitHeaders } from '@/lib/ratelimit/answers';
import { PLAN_LIMITS } from '@/lib/sites/plans';
import { strategyOf } from './auth';
import { clientIp } from './client-ip';
import type { AnswerHeaders } from './envelope';

/**
 * Which limits a route applies (the `rateLimit` of its declaration):
 * - `plan` (default for API-key and platform-key routes): the site's plan, counted per site over all its keys —
 *   requests per minute and requests in flight.
 * - `visitor` (visitor-session routes): 60 requests/min per client IP and 1,000/min per API key
 *   (keyless browser calls count per site instead of per key).
 * - `none` (default for session and public routes).
 */
export type RateLimitPolicy = 'plan' | 'visitor' | 'none';

export const VISITOR_LIMITS = { perIp: 60, perKey: 1000 } as const;
const MINUTE = 60_000;

export function policyOf(declared: RateLimitPolicy | undefined, authKind: string): RateLimitPolicy {
  return declared ?? (authKind === 'apiKey' || authKind === 'platformKey' ? 'plan' : 'none');
}

/**
 * Counts the request against its policy's limits, sets X-RateLimit-* on `headers`, and throws
 * 429 RATE_LIMITED when a limit is exceeded. Returns the concurrency slot to release when the
 * request ends, if the policy holds one.
 */
export async function enforceRateLimit(
  policy: RateLimitPolicy,
  principal: Principal,
  req: Request,
  headers: AnswerHeaders,
): Promise<Slot | undefined> {
  const limiter = rateLimiter();
  if (!limiter || policy === 'none') return undefined;

  const subject = strategyOf(principal).limitSubject(principal);
  if (policy === 'visitor') {
    const [byIp, byKey] = await Promise.all([
      limiter.limit(`visitor:ip:${clientIp(req)}`, { limit: VISITOR_LIMITS.perIp, windowMs: MINUTE }),
      limiter.limit(`visitor:${subject.bucket}`, { limit: VISITOR_LIMITS.perKey, windowMs: MINUTE }),
    ]);
    // The headers describe the limit closest to tripping.
    const tighter = !byIp.success ? byIp : !byKey.success ? byKey : byIp.remaining <= byKey.remaining ? byIp : byKey;
    setHeaders(headers, tighter);
    if (!byIp.success) throw rateLimited(byIp, `Rate limit exceeded: ${VISITOR_LIMITS.perIp} requests per minute per client IP`);
    if (!byKey.success) throw rateLimited(byKey, `Rate limit exceeded: ${VISITOR_LIMITS.perKey} requests per minute per API key`);
    return undefined;
  }

  if (!subject.plan) return undefined;
  const { siteId, limits = PLAN_LIMITS.basic } = subject.plan;
  const [rate, slot] = await Promise.all([
    limiter.limit(`plan:${siteId}`, { limit: limits.perMinute, windowMs: MINUTE }),
    limiter.acquire(`plan:${siteId}`, limits.concurrent),
  ]);
  setHeaders(headers, rate);
  if (!rate.success) {
    void slot?.release();
    throw rateLimited(rate, `Rate limit exceeded: ${limits.perMinute} requests per minute for this site's plan`);
  }
  if (!slot) {
    throw new ApiError(
      'RATE_LIMITED',
      `Too many concurrent requests: this site's plan allows ${limits.concurrent} at a time`,
      { concurrent_limit: limits.concurrent, retry_after: 1 },
      { 'retry-after': '1' },
    );
  }
  return slot;
}

function setHeaders(headers: AnswerHeaders, result: LimitResult) {
  for (const [name, value] of Object.entries(rateLimitHeaders(result))) headers.set(name, value);
}
