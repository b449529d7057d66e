import { admitAttempt, guardAttempt, recordFailedAttempt } from '@/lib/auth/brute-force';
import { decoyPasswordHash, hashPassword, verifyPassword } from '@/lib/auth/passwords';
import { issueSessionToken } from '@/lib/auth/session';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { countUsers, findUserByEmail, insertUser } from './repo';
import type { SignupInput, User } from './schema';

/**
 * Creates an account. With OPEN_SIGNUP=false only the very first account can sign up.
 * `ip` is the caller's address, for brute-force limits.
 */
export async function signUp(input: SignupInput, ip = 'unknown'): Promise<User> {
  return guardAttempt({ ip, account: input.email }, async () => {
    if (!config().OPEN_SIGNUP && (await countUsers()) > 0) {
      throw new ApiError('FORBIDDEN', 'Sign-up is closed on this server');
    }
    return insertUser({ email: input.email, name: input.name ?? null, passwordHash: await hashPassword(input.password) });
  });
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
