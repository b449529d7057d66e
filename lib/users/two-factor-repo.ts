import { and, count, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { userRecoveryCodes, userTwoFactor } from '@/lib/db/schema';

export interface TwoFactorRow {
  secretSealed: string;
  enabledAt: Date | null;
  lastStep: number | null;
}

export async function findTwoFactor(userId: string): Promise<TwoFactorRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ secretSealed: userTwoFactor.secretSealed, enabledAt: userTwoFactor.enabledAt, lastStep: userTwoFactor.lastStep })
    .from(userTwoFactor)
    .where(eq(userTwoFactor.userId, userId))
    .limit(1);
  return row;
}

/** Stores a new pending secret (replacing a pending one); false when the account's second factor is already on. */
export async function savePendingSecret(userId: string, secretSealed: string, at: Date): Promise<boolean> {
  const db = await getDb();
  const saved = await db
    .insert(userTwoFactor)
    .values({ userId, secretSealed, createdAt: at })
    .onConflictDoUpdate({
      target: userTwoFactor.userId,
      set: { secretSealed, createdAt: at, lastStep: null },
      setWhere: isNull(userTwoFactor.enabledAt),
    })
    .returning({ userId: userTwoFactor.userId });
  return saved.length > 0;
}

/** A step later than the last accepted one (a code works once, and never after a later one). */
const laterStep = (step: number) => or(isNull(userTwoFactor.lastStep), lt(userTwoFactor.lastStep, step));

/**
 * Turns the pending secret on with its first code's step and the recovery codes' hashes, in one
 * transaction; false when there is no pending secret or the step was already spent.
 */
export async function enablePending(userId: string, step: number, codeHashes: string[], at: Date): Promise<boolean> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const enabled = await tx
      .update(userTwoFactor)
      .set({ enabledAt: at, lastStep: step })
      .where(and(eq(userTwoFactor.userId, userId), isNull(userTwoFactor.enabledAt), laterStep(step)))
      .returning({ userId: userTwoFactor.userId });
    if (enabled.length === 0) return false;
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.insert(userRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
    return true;
  });
}

/** Spends the time step of an accepted code; false when it (or a later one) was spent before: a replay. */
export async function spendStep(userId: string, step: number): Promise<boolean> {
  const db = await getDb();
  const spent = await db
    .update(userTwoFactor)
    .set({ lastStep: step })
    .where(and(eq(userTwoFactor.userId, userId), isNotNull(userTwoFactor.enabledAt), laterStep(step)))
    .returning({ userId: userTwoFactor.userId });
  return spent.length > 0;
}

/** Spends a recovery code; false when the account has no such unused code. */
export async function spendRecoveryCode(userId: string, codeHash: string, at: Date): Promise<boolean> {
  const db = await getDb();
  const spent = await db
    .update(userRecoveryCodes)
    .set({ usedAt: at })
    .where(and(eq(userRecoveryCodes.userId, userId), eq(userRecoveryCodes.codeHash, codeHash), isNull(userRecoveryCodes.usedAt)))
    .returning({ id: userRecoveryCodes.id });
  return spent.length > 0;
}

export async function countUnusedRecoveryCodes(userId: string): Promise<number> {
  const db = await getDb();
  const [row] = await db
    .select({ n: count() })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.userId, userId), isNull(userRecoveryCodes.usedAt)));
  return row.n;
}

/** Replaces every recovery code of the account (the old ones stop working). */
export async function replaceRecoveryCodes(userId: string, codeHashes: string[], at: Date): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.insert(userRecoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: at })));
  });
}

/** Turns the second factor off: its secret and recovery codes go. */
export async function deleteTwoFactor(userId: string): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
    await tx.delete(userTwoFactor).where(eq(userTwoFactor.userId, userId));
  });
}
