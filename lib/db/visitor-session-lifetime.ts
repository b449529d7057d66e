import { sql, type SQL } from 'drizzle-orm';
import { config } from '@/lib/core/config';

/**
 * How long a visitor session lives and how it ends — the rules every reader and writer applies,
 * so a session that ran out of time looks the same whether or not anything has closed it yet.
 * They sit beside the schema of `visitor_sessions`: visitors write that table, analytics and sites
 * count it, and sites lies below visitors (it may not import that domain).
 *
 * A session spans the page views of one visitor at one site until it has been idle for the
 * inactivity limit (SESSION_IDLE_TIMEOUT_SECONDS, 30 minutes by default) or is 24 hours old.
 * Nothing sweeps sessions in the background: one that ran out of time is closed when its visitor
 * next starts a session (or by `closeExpiredSessions`), and until then readers show it as expired.
 * The same rules in SQL follow each of them here.
 */
export const SESSION_MAX_MS = 24 * 60 * 60 * 1000;

/** The inactivity limit in milliseconds. */
export const sessionTtlMs = (): number => config().SESSION_IDLE_TIMEOUT_SECONDS * 1000;

/** Expiry after activity at `at`: the inactivity limit later, never past 24 hours after creation. */
export const expiryAfter = (createdAt: number, at: number): number => Math.min(at + sessionTtlMs(), createdAt + SESSION_MAX_MS);

interface Lifetime {
  status: 'active' | 'closed' | 'expired';
  expiresAt: number;
}

/** Expiry after activity at `at` (expiryAfter), on epoch-millisecond expressions. */
export const expiryAfterSql = (createdAt: SQL, at: SQL): SQL =>
  sql`least(${at} + ${sessionTtlMs()}::bigint, ${createdAt} + ${SESSION_MAX_MS}::bigint)`;

/** Whether the session still takes activity at `now`. */
export const isLive = (row: Lifetime, now: number): boolean => row.status === 'active' && row.expiresAt > now;

/**
 * Whether the session still takes activity at `now` (isLive), on a row `s` of visitor_sessions
 * (bare column names when `s` is omitted). The bound on created_at follows from the rule (no session
 * outlives 24 hours): expires_at moves with every activity and is not indexed, so a scan for live
 * sessions is bounded by created_at.
 */
export const isLiveSql = (now: number, s?: string): SQL => {
  const col = (name: string) => sql.raw(s ? `${s}.${name}` : name);
  return sql`(${col('status')} = 'active' and ${col('expires_at')} > ${now}::bigint and ${col('created_at')} > ${now - SESSION_MAX_MS}::bigint)`;
};

/** Still marked active, but past its inactivity limit or its 24 hours: it has ended. */
export const hasLapsed = (row: Lifetime, now: number): boolean => row.status === 'active' && row.expiresAt <= now;

/** A one-page visit is a bounce, however it ended. */
export const isBounce = (pageViews: number): boolean => pageViews <= 1;

interface Activity {
  createdAt: number;
  lastActivityAt: number;
  pageViews: number;
  currentUrl: string | null;
  exitUrl: string | null;
}

/**
 * How a session that ran out of time ended: at its last activity, on its last page; `bounce` for
 * a one-page visit, `timeout` otherwise.
 */
export function lapsedEnd(row: Activity) {
  return {
    endedAt: row.lastActivityAt,
    exitUrl: row.currentUrl ?? row.exitUrl,
    exitType: (isBounce(row.pageViews) ? 'bounce' : 'timeout') as 'bounce' | 'timeout',
    duration: row.lastActivityAt - row.createdAt,
  };
}

/** The end route's defaults: the last page as exit, `bounce` for a one-page visit and `exit` otherwise. */
export function closedEnd(row: Pick<Activity, 'pageViews' | 'currentUrl'>) {
  return { exitUrl: row.currentUrl, exitType: (isBounce(row.pageViews) ? 'bounce' : 'exit') as 'bounce' | 'exit' };
}
