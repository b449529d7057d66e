import { config } from '@/lib/core/config';
import { rateLimiter } from '@/lib/ratelimit';
import { rateLimited } from '@/lib/ratelimit/answers';

/**
 * Limits of the mail an account request sends (verification, reset links, sign-up notices), so
 * nobody can flood an inbox or probe addresses at speed:
 * - per address (lower-cased): ACCOUNT_MAILS_PER_ADDRESS per hour, counted whether or not an
 *   account has that address, so the limit itself tells nothing about who has an account;
 * - per client IP: AUTH_RATE_LIMIT_PER_IP requests per minute.
 */
const IP_WINDOW_MS = 60_000;
const ADDRESS_WINDOW_MS = 60 * 60_000;

const addressWindow = () => ({ limit: config().ACCOUNT_MAILS_PER_ADDRESS, windowMs: ADDRESS_WINDOW_MS });
const addressId = (email: string) => `account-mail:address:${email.trim().toLowerCase()}`;

/** Counts a mail request from `ip` for `email`; 429 RATE_LIMITED when either is over its limit. */
export async function admitMailRequest(source: { ip: string; email: string }): Promise<void> {
  const limiter = rateLimiter();
  if (!limiter) return;
  const [byIp, byAddress] = await Promise.all([
    limiter.limit(`account-mail:ip:${source.ip}`, { limit: config().AUTH_RATE_LIMIT_PER_IP, windowMs: IP_WINDOW_MS }),
    limiter.limit(addressId(source.email), addressWindow()),
  ]);
  if (!byIp.success) throw rateLimited(byIp, 'Too many requests from this address; retry later');
  if (!byAddress.success) throw rateLimited(byAddress, 'Too many messages to this email address; retry later');
}

/** Counts one mail to `email`; false when the address had its share this hour (the mail is then not sent). */
export async function mayMail(email: string): Promise<boolean> {
  const limiter = rateLimiter();
  return limiter ? (await limiter.limit(addressId(email), addressWindow())).success : true;
}
