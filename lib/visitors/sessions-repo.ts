import { and, asc, count, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { getDb, type Db } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { visitorSessions, visitors } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import { closedEnd, expiryAfterSql, hasLapsed, isLive, isLiveSql, lapsedEnd } from '@/lib/db/visitor-session-lifetime';
import { recordEvent } from '@/lib/webhooks/service';
import { sessionEnded, sessionNotFound } from './errors';
import { type EndSessionInput, type SessionSummary, type UpdateSessionInput } from './schema';

/** A session's row: its reads and writes, one at a time (starts: ./session-starts-repo.ts). */
export type SessionRow = typeof visitorSessions.$inferSelect;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Json = Record<string, unknown>;

/** The consent rule of ./consent.ts (analyticsAllowed) in SQL, on a jsonb consent expression. */
export const analyticsAllowedSql = (consent: SQL): SQL => sql`coalesce((${consent}) -> 'analytics' <> 'false'::jsonb, true)`;

/**
 * The session as it stands at `now`: one that ran out of time reads as expired, ended at its last
 * activity on its last page (./lifetime.ts), whether or not anything has closed it yet.
 */
export const toSessionSummary = (stored: SessionRow, now: number): SessionSummary =>
  summaryOf(hasLapsed(stored, now) ? { ...stored, ...lapsedEnd(stored), status: 'expired' } : stored);

const summaryOf = (row: SessionRow): SessionSummary => ({
  session_id: row.id,
  visitor_id: row.visitorId,
  fingerprint: row.fingerprint,
  site_id: row.siteId,
  lead_id: row.leadId,
  previous_session_id: row.previousSessionId,
  status: row.status,
  url: row.url,
  current_url: row.currentUrl,
  referrer: row.referrer,
  utm_source: row.utmSource,
  utm_medium: row.utmMedium,
  utm_campaign: row.utmCampaign,
  utm_term: row.utmTerm,
  utm_content: row.utmContent,
  created_at: row.createdAt,
  started_at: row.startedAt,
  last_activity_at: row.lastActivityAt,
  updated_at: row.updatedAt,
  expires_at: row.expiresAt,
  ended_at: row.endedAt,
  duration: row.duration,
  page_views: row.pageViews,
  active_time: row.activeTime,
  idle_time: row.idleTime,
  exit_url: row.exitUrl,
  exit_type: row.exitType,
  device: row.device,
  browser: row.browser,
  location: row.location,
  performance: row.performance,
  consent: row.consent,
  custom_data: row.customData,
  lead_data: row.leadData,
  is_bot: row.isBot,
  event_count: row.eventCount,
  conversions: row.conversions,
});

/** Marks a session that ran out of time as expired, with the end readers already show for it, and announces it. */
export async function expire(tx: Tx, row: SessionRow, now: number): Promise<void> {
  const [ended] = await tx
    .update(visitorSessions)
    .set({ ...lapsedEnd(row), status: 'expired', updatedAt: now })
    .where(and(eq(visitorSessions.id, row.id), eq(visitorSessions.status, 'active')))
    .returning();
  if (ended) await announceEnd(tx, ended);
}

/** The session.ended webhook event, written in the transaction that ends the session (once per session). */
async function announceEnd(tx: Tx, ended: SessionRow): Promise<void> {
  await recordEvent(
    tx,
    ended.siteId,
    'session.ended',
    {
      session_id: ended.id,
      visitor_id: ended.visitorId,
      lead_id: ended.leadId ?? null,
      ended_at: new Date(Number(ended.endedAt)).toISOString(),
      duration: ended.duration === null ? null : Number(ended.duration),
      page_views: ended.pageViews ?? null,
      exit_type: ended.exitType ?? null,
    },
    `session.ended:${ended.id}`,
  );
}

export async function findSession(siteId: string, sessionId: string, q?: Db): Promise<SessionRow | undefined> {
  return findOfSite(visitorSessions, siteId, sessionId, q);
}

/** A session GET may show: active and unexpired, or closed by the end route. Otherwise 404. */
export async function readableSession(siteId: string, sessionId: string, now: number, q?: Db): Promise<SessionRow> {
  const row = await findSession(siteId, sessionId, q);
  if (!row || !(row.status === 'closed' || isLive(row, now))) throw sessionNotFound(sessionId, siteId);
  return row;
}

/** Why a write to this session was refused: missing/expired → 404, closed → 409. */
export async function refusal(siteId: string, sessionId: string): Promise<Error> {
  const row = await findSession(siteId, sessionId);
  return row?.status === 'closed' ? sessionEnded(sessionId, siteId) : sessionNotFound(sessionId, siteId);
}

/**
 * PUT: activity and counters; renews expiry. Only a live session takes it. One statement, no
 * transaction: the row is locked by the update itself, and every value that depends on the stored
 * row (later activity wins, the expiry's 24-hour bound, consent merged into the stored consent, the
 * URL and custom data kept only while analytics is allowed) is computed from the row it locked.
 */
export async function updateSession(siteId: string, input: UpdateSessionInput, now: number): Promise<SessionRow> {
  const db = await getDb();
  const s = visitorSessions;
  const consent = input.consent ? sql`coalesce(${s.consent}, '{}'::jsonb) || ${JSON.stringify(input.consent)}::jsonb` : sql`${s.consent}`;
  const keep = analyticsAllowedSql(consent);
  const [updated] = await db
    .update(s)
    .set({
      lastActivityAt: sql`greatest(${s.lastActivityAt}, ${Math.min(input.last_activity_at ?? now, now)}::bigint)`,
      updatedAt: now,
      expiresAt: expiryAfterSql(sql`${s.createdAt}`, sql`${now}::bigint`),
      ...(input.consent ? { consent } : {}),
      ...(input.current_url !== undefined ? { currentUrl: sql`case when ${keep} then ${input.current_url}::text else ${s.currentUrl} end` } : {}),
      ...(input.page_views !== undefined ? { pageViews: input.page_views } : {}),
      ...(input.active_time !== undefined ? { activeTime: input.active_time } : {}),
      ...(input.idle_time !== undefined ? { idleTime: input.idle_time } : {}),
      ...(input.custom_data !== undefined
        ? { customData: sql`case when ${keep} then ${JSON.stringify(input.custom_data)}::jsonb else ${s.customData} end` }
        : {}),
    })
    .where(and(eq(s.siteId, siteId), eq(s.id, input.session_id), isLiveSql(now)))
    .returning();
  if (!updated) throw await refusal(siteId, input.session_id);
  return updated;
}

/**
 * Closes a live session. Ending an already closed session returns it unchanged (a page may send
 * its end beacon twice); a missing or expired one is session_not_found. Without `exit_url` and
 * `exit_type`, the last page is the exit and a one-page visit is a bounce.
 */
export async function endSession(siteId: string, sessionId: string, input: EndSessionInput, now: number): Promise<SessionRow> {
  const db = await getDb();
  // The session.ended webhook event is written in the same transaction.
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(visitorSessions)
      .where(and(eq(visitorSessions.siteId, siteId), eq(visitorSessions.id, sessionId)))
      .for('update');
    if (!current || !isLive(current, now)) return undefined;
    const pageViews = input.page_views ?? current.pageViews;
    const defaults = closedEnd({ pageViews, currentUrl: current.currentUrl });
    const [ended] = await tx
      .update(visitorSessions)
      .set({
        status: 'closed',
        endedAt: now,
        updatedAt: now,
        exitUrl: input.exit_url ?? defaults.exitUrl,
        exitType: input.exit_type ?? defaults.exitType,
        duration: input.duration ?? now - current.createdAt,
        pageViews,
      })
      .where(eq(visitorSessions.id, current.id))
      .returning();
    await announceEnd(tx, ended);
    return ended;
  });
  // Outside the transaction: on PGlite a query from outside it would wait for it to finish.
  if (row) return row;
  const existing = await findSession(siteId, sessionId);
  if (existing?.status === 'closed') return existing;
  throw sessionNotFound(sessionId, siteId);
}

/**
 * Closes up to `limit` sessions of any site that ran out of time by `now` but are still marked
 * active (their visitors did not come back), as a visitor's next start would: expired, ended at the
 * last activity on the last page, `bounce` or `timeout`, with the session.ended webhook event.
 * Readers already show such sessions as ended; this makes the stored rows and the webhooks catch
 * up. Meant for a periodic job; answers how many it closed (call again while it answers `limit`).
 */
export async function closeExpiredSessions(now: number, limit = 500): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const lapsed = await tx
      .select()
      .from(visitorSessions)
      // By the index of active sessions (on created_at, which never moves): oldest first.
      .where(and(eq(visitorSessions.status, 'active'), lte(visitorSessions.expiresAt, now)))
      .orderBy(asc(visitorSessions.createdAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    for (const row of lapsed) await expire(tx, row, now);
    return lapsed.length;
  });
}

/** Binds a lead of the site to a readable session and to its visitor. */
export async function bindLead(siteId: string, sessionId: string, leadId: string, now: number, leadData?: Json): Promise<SessionRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(visitorSessions)
      .set({ leadId, updatedAt: now, ...(leadData !== undefined ? { leadData } : {}) })
      .where(
        and(eq(visitorSessions.siteId, siteId), eq(visitorSessions.id, sessionId), sql`(${visitorSessions.status} = 'closed' or ${isLiveSql(now)})`),
      )
      .returning();
    if (!row) throw sessionNotFound(sessionId, siteId);
    await tx
      .update(visitors)
      .set({ leadId })
      .where(and(eq(visitors.siteId, siteId), eq(visitors.id, row.visitorId)));
    return row;
  });
}

export interface SessionListFilter {
  visitorId?: string;
  leadId?: string;
  /** Sessions attributed to this utm_source, whatever its case (`Newsletter` finds `newsletter`). */
  utmSource?: string;
  /** Only bot sessions (true) or only people's (false); both when undefined. */
  bot?: boolean;
  /** Only sessions bound to a lead (true) or anonymous ones (false). */
  identified?: boolean;
  from?: number;
  to?: number;
  limit: number;
  offset: number;
}

export async function listSessions(siteId: string, f: SessionListFilter, now: number): Promise<{ items: SessionSummary[]; total: number }> {
  const db = await getDb();
  const where = and(
    eq(visitorSessions.siteId, siteId),
    f.visitorId ? eq(visitorSessions.visitorId, f.visitorId) : undefined,
    f.leadId ? eq(visitorSessions.leadId, f.leadId) : undefined,
    f.utmSource ? sql`lower(${visitorSessions.utmSource}) = lower(${f.utmSource})` : undefined,
    f.bot === undefined ? undefined : eq(visitorSessions.isBot, f.bot),
    f.identified === undefined ? undefined : f.identified ? isNotNull(visitorSessions.leadId) : isNull(visitorSessions.leadId),
    f.from !== undefined ? gte(visitorSessions.startedAt, f.from) : undefined,
    f.to !== undefined ? lte(visitorSessions.startedAt, f.to) : undefined,
  );
  const [rows, [{ n }]] = await Promise.all([
    db.select().from(visitorSessions).where(where).orderBy(desc(visitorSessions.startedAt), desc(visitorSessions.id)).limit(f.limit).offset(f.offset),
    db.select({ n: count() }).from(visitorSessions).where(where),
  ]);
  return { items: rows.map((r) => toSessionSummary(r, now)), total: n };
}

/**
 * Retention (lib/worker/retention.ts): deletes up to `limit` ended sessions of the site that started and last
 * saw activity before `cutoff` (epoch ms), oldest first.
 */
export const pruneEndedSessions = (siteId: string, cutoff: number, limit: number): Promise<number> =>
  changedRows(sql`delete from visitor_sessions where id in (
    select id from visitor_sessions where site_id = ${siteId}::uuid and created_at < ${cutoff} and last_activity_at < ${cutoff}
      and status <> 'active' order by created_at limit ${limit})`);
