import { admitAttempt, guardAttempt, recordFailedAttempt } from '@/lib/auth/brute-force';
import { mayMail } from '@/lib/auth/mail-limits';
import { decoyPasswordHash, hashPassword, verifyPassword } from '@/lib/auth/passwords';
import { endSessionOf, issueSessionToken } from '@/lib/auth/session';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { noticeQuietly } from './account-notices';
import { countUsers, findUserByEmail, insertUser } from './repo';
import type { MailSent, SignupInput, User } from './schema';

/**
 * Creates an account and mails it a verification link. With OPEN_SIGNUP=false only the very first
 * account can sign up. An address that already has an account gets the same answer (`answer`) and
 * a mail saying someone tried, with a reset link; nothing else changes and it counts as a failed
 * attempt on that account. `created` is for the console alone, which signs a new account in.
 * `ip` is the caller's address, for brute-force limits; `requestOrigin` the links' origin without NEXTAUTH_URL.
 */
export async function signUp(input: SignupInput, ip: string, requestOrigin: string): Promise<{ answer: MailSent; created: User | null }> {
  return guardAttempt({ ip, account: input.email }, async () => {
    if (!config().OPEN_SIGNUP && (await countUsers()) > 0) {
      throw new ApiError('FORBIDDEN', 'Sign-up is closed on this server');
    }
    const answer = { email: input.email, message: 'Check your inbox: a link to verify this address was sent to it (valid 7 days).' };
    // Hashed in both cases, so the answer takes as long for a taken address as for a new one.
    const passwordHash = await hashPassword(input.password);
    const created = await insertUser({ email: input.email, name: input.name ?? null, passwordHash }).catch((error: unknown) => {
      if (error instanceof ApiError && error.code === 'CONFLICT') return null;
      throw error;
    });
    const mail = await mayMail('signup', input.email);
    if (created) {
      if (mail) await noticeQuietly(created, 'verify_email', requestOrigin);
      return { answer, created };
    }
    const existing = await findUserByEmail(input.email);
    if (existing && mail) await noticeQuietly(existing, 'signup_attempt', requestOrigin);
    await recordFailedAttempt(input.email);
    return { answer, created: null };
  });
}

/** Ends the session a token names (sign-out): that token, cookie or Bearer, is refused from now on. */
export async function signOut(token: string): Promise<{ signed_out: true }> {
  await endSessionOf(token);
  return { signed_out: true };
}

/** The account for these credentials, or null; unknown email and wrong password look the same. */
export async function checkCredentials(email: string, password: string): Promise<User | null> {
  const user = await findUserByEmail(email);
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
  return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}

/**
 * A sign-in attempt from `ip` behind the brute-force limits: the account, or null for wrong
 * credentials (counted against the account); 429 RATE_LIMITED when the IP or account is locked out.
 */
export async function signIn(email: string, password: string, ip = 'unknown'): Promise<User | null> {
  await admitAttempt({ ip, account: email });
  return checkCountingFailures(email, password);
}

/** checkCredentials, with a wrong password counted against the account (brute-force limits). */
export async function checkCountingFailures(email: string, password: string): Promise<User | null> {
  const user = await checkCredentials(email, password);
  if (!user) await recordFailedAttempt(email);
  return user;
}

/** A session token for these credentials; 401 with one message for every kind of failure. */
export async function issueToken(email: string, password: string, ip = 'unknown') {
  const user = await signIn(email, password, ip);
  if (!user) throw new ApiError('UNAUTHORIZED', 'Invalid email or password');
  const { token, expiresAt } = await issueSessionToken(user);
  return { token, expires_at: expiresAt.toISOString() };
}

export { findUserById } from './repo';
export { accountOf, resendVerification, verifyEmail } from './verification';
export { requestPasswordReset, resetPassword } from './recovery';
