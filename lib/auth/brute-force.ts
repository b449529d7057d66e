import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { rateLimiter } from '@/lib/ratelimit';
import { rateLimited } from '@/lib/ratelimit/answers';
import type { LimitResult } from '@/lib/ratelimit/port';

/**
 * Brute-force protection for sign-up, token and console sign-in.
 * - Per client IP: every attempt counts, AUTH_RATE_LIMIT_PER_IP per minute.
 * - Per account (the e-mail, lower-cased): only failed attempts count, AUTH_FAILURES_PER_ACCOUNT
 *   per 15 minutes; after that the account refuses attempts until the window ends, even with the
 *   right password. (This lets someone lock an account for 15 minutes; it never lets them guess on.)
 * Both answer 429 RATE_LIMITED with Retry-After.
 * A single sign-on's return from the provider (its callback) counts per client IP too, with the same
 * AUTH_RATE_LIMIT_PER_IP per minute in a count of its own: no password is guessed there, but each one
 * costs a token exchange with the provider and a sign-in.
 */
const IP_WINDOW_MS = 60_000;
const ACCOUNT_WINDOW_MS = 15 * 60_000;

export interface AttemptSource {
  ip: string;
  account: string;
}

const ipWindow = () => ({ limit: config().AUTH_RATE_LIMIT_PER_IP, windowMs: IP_WINDOW_MS });
const accountWindow = () => ({ limit: config().AUTH_FAILURES_PER_ACCOUNT, windowMs: ACCOUNT_WINDOW_MS });
const accountId = (account: string) => `auth:account:${account.trim().toLowerCase()}`;

/** Counts the attempt against its IP and throws 429 when the IP or the account is locked out. */
export async function admitAttempt(source: AttemptSource): Promise<void> {
  const limiter = rateLimiter();
  if (!limiter) return;
  const [byIp, byAccount] = await Promise.all([
    limiter.limit(`auth:ip:${source.ip}`, ipWindow()),
    limiter.peek(accountId(source.account), accountWindow()),
  ]);
  if (!byIp.success) throw rateLimited(byIp, 'Too many attempts from this address; retry later');
  if (byAccount.remaining <= 0) throw rateLimited(byAccount, 'Too many failed attempts for this account; retry later');
}

/** Counts a single sign-on callback against its IP; the window when the IP is past its limit (refused), else undefined. */
export async function refusedSsoCallback(ip: string): Promise<LimitResult | undefined> {
  const byIp = await rateLimiter()?.limit(`auth:sso:ip:${ip}`, ipWindow());
  return byIp && !byIp.success ? byIp : undefined;
}

/** Records a failed attempt (wrong password, taken e-mail) against the account. */
export async function recordFailedAttempt(account: string): Promise<void> {
  await rateLimiter()?.limit(accountId(account), accountWindow());
}

/** Runs an attempt behind both limits; a thrown client error (4xx) counts as a failure. */
export async function guardAttempt<T>(source: AttemptSource, attempt: () => Promise<T>): Promise<T> {
  await admitAttempt(source);
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) await recordFailedAttempt(source.account);
    throw error;
  }
}
