import { admitMailRequest } from '@/lib/auth/mail-limits';
import { hashPassword } from '@/lib/auth/passwords';
import { currentDate } from '@/lib/core/clock';
import { recordAccountEvent, UNKNOWN_CLIENT, type Client } from './account-events';
import { noticeQuietly } from './account-notices';
import { accountTokenHash, invalidLink } from './account-tokens';
import { findUserByEmail } from './repo';
import type { MailSent } from './schema';
import { spendResetToken } from './tokens-repo';

/**
 * A password reset request: a reset link is mailed when the address has an account, and the
 * answer is the same either way. Limited per address and per client IP (429).
 */
export async function requestPasswordReset(email: string, ip: string, requestOrigin: string): Promise<MailSent> {
  await admitMailRequest('reset', { ip, email });
  const user = await findUserByEmail(email);
  if (user) await noticeQuietly(user, 'reset_password', requestOrigin);
  return { email, message: 'If an account has this address, a link to choose a new password was sent to it (valid 1 hour).' };
}

/**
 * Sets a new password from a reset link. The link works once; the old password and every session
 * and session token of the account stop working at once.
 */
export async function resetPassword(token: string, password: string, client: Client = UNKNOWN_CLIENT): Promise<{ password_reset: true }> {
  const tokenHash = accountTokenHash('reset_password', token);
  if (!tokenHash) throw invalidLink();
  const userId = await spendResetToken(tokenHash, await hashPassword(password), currentDate());
  if (!userId) throw invalidLink();
  await recordAccountEvent({ userId, kind: 'password_reset', ...client });
  return { password_reset: true };
}
