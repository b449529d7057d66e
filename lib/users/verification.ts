import { admitMailRequest } from '@/lib/auth/mail-limits';
import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { sendAccountMail } from './account-mail';
import { accountTokenHash, invalidLink, issueAccountToken } from './account-tokens';
import { findAccount } from './repo';
import type { Account } from './schema';
import { spendVerificationToken } from './tokens-repo';
import { twoFactorEnabled } from './two-factor';

/** The signed-in account as `GET /api/auth/me` answers it. */
export async function accountOf(userId: string): Promise<Account> {
  const row = found(await findAccount(userId), 'Account');
  return { id: row.id, email: row.email, name: row.name, email_verified: row.emailVerifiedAt !== null, two_factor: await twoFactorEnabled(userId) };
}

/** Spends a verification link: the address it was sent to is verified, when it is still the account's. */
export async function verifyEmail(token: string): Promise<Account> {
  const tokenHash = accountTokenHash('verify_email', token);
  const userId = tokenHash ? await spendVerificationToken(tokenHash, currentDate()) : undefined;
  if (!userId) throw invalidLink();
  return accountOf(userId);
}

/**
 * Mails a new verification link to the signed-in account's address (none once it is verified).
 * Limited per address and per client IP (429); a refused delivery answers 502 PROVIDER_ERROR.
 */
export async function resendVerification(userId: string, ip: string, requestOrigin: string): Promise<Account & { sent: boolean }> {
  const account = await accountOf(userId);
  if (account.email_verified) return { ...account, sent: false };
  await admitMailRequest('verify', { ip, email: account.email });
  const token = await issueAccountToken('verify_email', account);
  await sendAccountMail(account.email, { kind: 'verify_email', token }, requestOrigin);
  return { ...account, sent: true };
}
