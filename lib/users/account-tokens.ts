import { generateApiKey, hashApiKey, isWellFormedApiKey } from '@/lib/auth/api-key-format';
import { now } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import { insertToken, type TokenPurpose } from './tokens-repo';

/**
 * The single-use tokens mailed to an account: 256 random bits in the API key format (a prefix
 * naming the purpose, check characters that refuse a mistyped link before any lookup). Only
 * their SHA-256 is stored; the token exists in the mail alone.
 */
const PURPOSES: Record<TokenPurpose, { prefix: string; ttlMs: number }> = {
  verify_email: { prefix: 'verify', ttlMs: 7 * 24 * 60 * 60_000 },
  reset_password: { prefix: 'reset', ttlMs: 60 * 60_000 },
};

/** A new token of `purpose` for the account at `email`, stored hashed; the token itself for the link. */
export async function issueAccountToken(purpose: TokenPurpose, user: { id: string; email: string }): Promise<string> {
  const { prefix, ttlMs } = PURPOSES[purpose];
  const token = generateApiKey(prefix);
  await insertToken({ userId: user.id, purpose, tokenHash: hashApiKey(token), email: user.email, expiresAt: new Date(now() + ttlMs) });
  return token;
}

/** The stored hash of a presented token of `purpose`, or null when it cannot be one (wrong shape or purpose). */
export function accountTokenHash(purpose: TokenPurpose, token: string): string | null {
  return isWellFormedApiKey(token) && token.startsWith(`${PURPOSES[purpose].prefix}_`) ? hashApiKey(token) : null;
}

/** One answer for a token that is unknown, of another purpose, spent or expired. */
export const invalidLink = () => new ApiError('INVALID_REQUEST', 'This link is invalid, was already used or has expired; ask for a new one');
