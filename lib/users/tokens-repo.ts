import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { accountTokens, users, userSessions } from '@/lib/db/schema';

export type TokenPurpose = 'verify_email' | 'reset_password';

export async function insertToken(input: {
  userId: string;
  purpose: TokenPurpose;
  tokenHash: string;
  email: string;
  expiresAt: Date;
}): Promise<void> {
  const db = await getDb();
  await db.insert(accountTokens).values(input);
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Marks the token used, once: the one statement that finds an unused, unexpired token of this
 * purpose also spends it, so two requests with the same token cannot both succeed.
 */
async function spend(tx: Tx, purpose: TokenPurpose, tokenHash: string, at: Date) {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(
      and(eq(accountTokens.tokenHash, tokenHash), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt), gt(accountTokens.expiresAt, at)),
    )
    .returning({ userId: accountTokens.userId, email: accountTokens.email });
  return row;
}

/** Marks the address verified when it is still the account's; the user id, or undefined for a token that does not work. */
export async function spendVerificationToken(tokenHash: string, at: Date): Promise<string | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const token = await spend(tx, 'verify_email', tokenHash, at);
    if (!token) return undefined;
    await tx
      .update(users)
      .set({ emailVerifiedAt: at })
      .where(and(eq(users.id, token.userId), eq(sql`lower(${users.email})`, token.email.toLowerCase()), isNull(users.emailVerifiedAt)));
    return token.userId;
  });
}

/**
 * Sets the new password, in one transaction with everything a reset ends: every session of the
 * account, and its other reset links. The mailed link proves the address, so it is verified too.
 * The user id, or undefined for a token that does not work.
 */
export async function spendResetToken(tokenHash: string, passwordHash: string, at: Date): Promise<string | undefined> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const token = await spend(tx, 'reset_password', tokenHash, at);
    if (!token) return undefined;
    await tx
      .update(users)
      .set({ passwordHash, emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${at.toISOString()}::timestamptz)` })
      .where(eq(users.id, token.userId));
    await tx
      .update(userSessions)
      .set({ revokedAt: at })
      .where(and(eq(userSessions.userId, token.userId), isNull(userSessions.revokedAt)));
    await tx
      .update(accountTokens)
      .set({ usedAt: at })
      .where(and(eq(accountTokens.userId, token.userId), eq(accountTokens.purpose, 'reset_password'), isNull(accountTokens.usedAt)));
    return token.userId;
  });
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` mailed account tokens expired before `cutoff`, oldest first; answers how many went. */
export const pruneAccountTokens = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from account_tokens where id in (select id from account_tokens where expires_at < ${cutoff.toISOString()}::timestamptz order by expires_at limit ${limit})`,
  );
