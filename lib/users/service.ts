import { admitAttempt, guardAttempt, recordFailedAttempt } from '@/lib/auth/brute-force';
import { mayMail } from '@/lib/auth/mail-limits';
import { decoyPasswordHash, hashPassword, verifyPassword } from '@/lib/auth/passwords';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { recordAccountEvent, UNKNOWN_CLIENT, type Client } from './account-events';
import { noticeQuietly } from './account-notices';
import { countUsers, findUserByEmail, insertUser } from './repo';
import type { MailSent, SignupInput, User } from './schema';
import { endSessionOf, issueSessionToken } from './session-tokens';
import { checkSecondFactor } from './two-factor';

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
async function checkPassword(email: string, password: string): Promise<{ user: User | null; known: string | null }> {
  const row = await findUserByEmail(email);
  const ok = await verifyPassword(password, row?.passwordHash ?? (await decoyPasswordHash()));
  return { user: row && ok ? { id: row.id, email: row.email, name: row.name } : null, known: row?.id ?? null };
}

/** What a sign-in presents: the account's email and password, and the second factor once it is on. */
export interface SignInAttempt {
  email: string;
  password: string;
  otp?: string;
}

/**
 * A sign-in attempt from `client` behind the brute-force limits: the account, or null for wrong
 * credentials (counted against the account); 429 RATE_LIMITED when the IP or account is locked out;
 * 401 OTP_REQUIRED or UNAUTHORIZED for a missing or wrong second factor (checkSecondFactor).
 */
export async function signIn(attempt: SignInAttempt, client: Client = UNKNOWN_CLIENT): Promise<User | null> {
  await admitAttempt({ ip: client.ip, account: attempt.email });
  return checkCountingFailures(attempt, client);
}

/**
 * The credentials and second factor of a sign-in whose limits were admitted already; a wrong
 * password is counted against the account, and each outcome goes to the account's audit log.
 */
export async function checkCountingFailures(attempt: SignInAttempt, client: Client = UNKNOWN_CLIENT): Promise<User | null> {
  const { user, known } = await checkPassword(attempt.email, attempt.password);
  if (!user) {
    await recordFailedAttempt(attempt.email);
    if (known) await recordAccountEvent({ userId: known, kind: 'sign_in_failed', ...client, detail: { reason: 'password' } });
    return null;
  }
  const method = await checkSecondFactor(user, attempt.otp, client);
  await recordAccountEvent({ userId: user.id, kind: 'sign_in', ...client, detail: { method } });
  return user;
}

/** A session token for these credentials; 401 with one message for every kind of wrong password. */
export async function issueToken(attempt: SignInAttempt, client: Client = UNKNOWN_CLIENT) {
  const user = await signIn(attempt, client);
  if (!user) throw new ApiError('UNAUTHORIZED', 'Invalid email or password');
  const { token, expiresAt } = await issueSessionToken(user, client);
  return { token, expires_at: expiresAt.toISOString() };
}

export { findUserById } from './repo';
export { accountOf, resendVerification, verifyEmail } from './verification';
export { requestPasswordReset, resetPassword } from './recovery';
export { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, setUpTwoFactor, twoFactorStatus } from './two-factor';
export { endAccountSession, endOtherSessions, listSessions } from './account-sessions';
export { accountEvents, siteAccountEvents, UNKNOWN_CLIENT, type Client } from './account-events';
