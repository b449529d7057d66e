import { and, desc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { errorFields, log } from '@/lib/core/log';
import { getDb } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { userSessions } from '@/lib/db/schema';

/** How stale `last_used_at` may get before a request writes it again: at most one write a minute per session. */
const LAST_USE_RESOLUTION_MS = 60_000;

export interface SessionDevice {
  userAgent: string | null;
  ip: string | null;
}

/** Records a session issued to `userId` now; its id goes into the session token (`sid`). */
export async function insertSession(userId: string, createdAt: Date, expiresAt: Date, device?: SessionDevice): Promise<string> {
  const db = await getDb();
  const [row] = await db
    .insert(userSessions)
    .values({ userId, createdAt, expiresAt, lastUsedAt: createdAt, userAgent: device?.userAgent ?? null, ip: device?.ip ?? null })
    .returning({ id: userSessions.id });
  return row.id;
}

/**
 * Whether the session exists for this user and was not revoked (the token's own expiry is checked
 * by its decoder). A live session's last use is written when it is a minute old or more, so a busy
 * session costs one write a minute, not one per request.
 */
export async function isLiveSession(sessionId: string, userId: string, at: Date): Promise<boolean> {
  const db = await getDb();
  const [row] = await db
    .select({ lastUsedAt: userSessions.lastUsedAt })
    .from(userSessions)
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt)))
    .limit(1);
  if (!row) return false;
  const stale = new Date(at.getTime() - LAST_USE_RESOLUTION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    // Shown on the account's session list only: a failed write must not refuse the request.
    await db
      .update(userSessions)
      .set({ lastUsedAt: at })
      .where(and(eq(userSessions.id, sessionId), or(isNull(userSessions.lastUsedAt), lt(userSessions.lastUsedAt, stale))))
      .catch((error: unknown) => log.warn('session last use not written', errorFields(error)));
  }
  return true;
}

/** Ends one session (sign-out); ending it twice changes nothing. */
export async function revokeSession(sessionId: string, at: Date): Promise<void> {
  const db = await getDb();
  await db
    .update(userSessions)
    .set({ revokedAt: at })
    .where(and(eq(userSessions.id, sessionId), isNull(userSessions.revokedAt)));
}

/** The account's sessions that still work at `at` (not revoked, not expired), newest first. */
export async function listLiveSessions(userId: string, at: Date) {
  const db = await getDb();
  return db
    .select({
      id: userSessions.id,
      userAgent: userSessions.userAgent,
      ip: userSessions.ip,
      createdAt: userSessions.createdAt,
      lastUsedAt: userSessions.lastUsedAt,
      expiresAt: userSessions.expiresAt,
    })
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, at)))
    .orderBy(desc(userSessions.createdAt), desc(userSessions.id))
    .limit(200);
}

/** Ends one live session of this account; false when it is not the account's or already ended. */
export async function revokeUserSession(userId: string, sessionId: string, at: Date): Promise<boolean> {
  const db = await getDb();
  const ended = await db
    .update(userSessions)
    .set({ revokedAt: at })
    .where(and(eq(userSessions.id, sessionId), eq(userSessions.userId, userId), isNull(userSessions.revokedAt), gt(userSessions.expiresAt, at)))
    .returning({ id: userSessions.id });
  return ended.length > 0;
}

/** Ends every live session of the account but `keep` (the caller's own); the ids ended. */
export async function revokeOtherSessions(userId: string, keep: string | null, at: Date): Promise<string[]> {
  const db = await getDb();
  const ended = await db
    .update(userSessions)
    .set({ revokedAt: at })
    .where(
      and(
        eq(userSessions.userId, userId),
        isNull(userSessions.revokedAt),
        gt(userSessions.expiresAt, at),
        ...(keep ? [ne(userSessions.id, keep)] : []),
      ),
    )
    .returning({ id: userSessions.id });
  return ended.map((row) => row.id);
}

/** Retention (lib/worker/retention.ts): deletes up to `limit` sign-in sessions expired before `cutoff`, oldest first; answers how many went. */
export const pruneUserSessions = (cutoff: Date, limit: number): Promise<number> =>
  changedRows(
    sql`delete from user_sessions where id in (select id from user_sessions where expires_at < ${cutoff.toISOString()}::timestamptz order by expires_at limit ${limit})`,
  );
