import { currentDate } from '@/lib/core/clock';
import { notFound } from '@/lib/core/errors';
import { recordAccountEvent, type Client } from './account-events';
import type { SessionInfo } from './schema';
import { listLiveSessions, revokeOtherSessions, revokeUserSession } from './sessions-repo';

/**
 * The account's own sessions (console cookies and session tokens alike): listed with the device
 * they were signed in from and their last use, and ended one by one or all but the caller's. An
 * ended session's token is refused from the next request on, on every instance (each request
 * reads its session row).
 */
export async function listSessions(userId: string, currentSessionId: string | null): Promise<SessionInfo[]> {
  const rows = await listLiveSessions(userId, currentDate());
  return rows.map((row) => ({
    id: row.id,
    current: row.id === currentSessionId,
    user_agent: row.userAgent,
    ip: row.ip,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt.toISOString(),
  }));
}

/** Ends one session of the account; another account's, an ended or an unknown one is 404. */
export async function endAccountSession(userId: string, sessionId: string, client: Client): Promise<{ revoked: true }> {
  if (!(await revokeUserSession(userId, sessionId, currentDate()))) throw notFound('Session');
  await recordAccountEvent({ userId, kind: 'session_revoked', ...client, detail: { session_id: sessionId } });
  return { revoked: true };
}

/** Ends every session of the account but the caller's own; how many ended. */
export async function endOtherSessions(userId: string, currentSessionId: string | null, client: Client): Promise<{ revoked: number }> {
  const ended = await revokeOtherSessions(userId, currentSessionId, currentDate());
  if (ended.length > 0) await recordAccountEvent({ userId, kind: 'session_revoked', ...client, detail: { count: ended.length, others: true } });
  return { revoked: ended.length };
}
