import { and, eq, isNull } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { userSessions } from '@/lib/db/schema';

/** Records a session issued to `userId` now; its id goes into the session token (`sid`). */
export async function insertSession(userId: string, createdAt: Date, expiresAt: Date): Promise<string> {
  const db = await getDb();
  const [row] = await db.insert(userSessions).values({ userId, createdAt, expiresAt }).returning({ id: userSessions.id });
  return row.id;
}

/** Whether the session exists for this user and was not revoked (the token's own expiry is checked by its decoder). */
export async function isLiveSession(sessionId: string, userId: string): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
    .limit(1);
  return row !== undefined;
}

/** Ends one session (sign-out); ending it twice changes nothing. */
export async function revokeSession(sessionId: string, at: Date): Promise<void> {
  const db = await getDb();
  await db
    .update(userSessions)
    .set({ revokedAt: at })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)));
}
