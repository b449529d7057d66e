import { errorFields, log } from '@/lib/core/log';
import { sendAccountMail } from './account-mail';
import { issueAccountToken } from './account-tokens';
import type { TokenPurpose } from './tokens-repo';

/**
 * Mails a fresh token to the account, where the caller's answer must not depend on it (sign-up,
 * a reset request; the caller counted the request against its limits): a delivery that failed is
 * logged (names only) instead of answered, so no answer tells who has an account.
 */
export async function noticeQuietly(
  user: { id: string; email: string },
  kind: 'verify_email' | 'reset_password' | 'signup_attempt',
  requestOrigin: string,
): Promise<void> {
  const purpose: TokenPurpose = kind === 'verify_email' ? 'verify_email' : 'reset_password';
  const token = await issueAccountToken(purpose, user);
  try {
    await sendAccountMail(user.email, { kind, token }, requestOrigin);
  } catch (error) {
    log.warn('account mail not delivered', { kind, ...errorFields(error) });
  }
}
