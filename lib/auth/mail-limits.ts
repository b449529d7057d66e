import { config } from '@/lib/core/config';
import { rateLimiter } from '@/lib/ratelimit';
import { rateLimited } from '@/lib/ratelimit/answers';

/**
 * Limits of the mail an account request sends, so nobody can flood an inbox or probe addresses
 * at speed:
 * - per address (lower-cased) and kind of request — reset requests, verification resends,
 *   sign-ups — ACCOUNT_MAILS_PER_ADDRESS per hour each. A request is counted whether or not an
 *   account has the address and whether or not a mail goes out, so no limit reached tells who
 *   has an account;
 * - per client IP: AUTH_RATE_LIMIT_PER_IP requests per minute.
 */
const IP_WINDOW_MS = 60_000;
const ADDRESS_WINDOW_MS = 60 * 60_000;

export type MailRequest = 'reset' | 'verify' | 'signup';

const addressWindow = () => ({ limit: config().ACCOUNT_MAILS_PER_ADDRESS, windowMs: ADDRESS_WINDOW_MS });
const addressId = (kind: MailRequest, email: string) => `account-mail:${kind}:${email.trim().toLowerCase()}`;

/** Counts a request of `kind` from `ip` for `email`; 429 RATE_LIMITED when either is over its limit. */
export async function admitMailRequest(kind: MailRequest, source: { ip: string; email: string }): Promise<void> {
  const limiter = rateLimiter();
  if (!limiter) return;
  const [byIp, byAddress] = await Promise.all([
    limiter.limit(`account-mail:ip:${source.ip}`, { limit: config().AUTH_RATE_LIMIT_PER_IP, windowMs: IP_WINDOW_MS }),
    limiter.limit(addressId(kind, source.email), addressWindow()),
  ]);
  if (!byIp.success) throw rateLimited(byIp, 'Too many requests from this address; retry later');
  if (!byAddress.success) throw rateLimited(byAddress, 'Too many messages to this email address; retry later');
}

/** Counts a request of `kind` for `email` that answers the same either way; false when the address had its share this hour (no mail then). */
export async function mayMail(kind: MailRequest, email: string): Promise<boolean> {
  const limiter = rateLimiter();
  return limiter ? (await limiter.limit(addressId(kind, email), addressWindow())).success : true;
}
