import { and, asc, count, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { timeOrderedUuid } from '@/lib/core/ids';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb, type Db } from '@/lib/db/client';
import { rows, tableRecords, tableRows } from '@/lib/db/raw';
import { sessionEvents, visitorSegments, visitorSessions, visitorUploads, visitors } from '@/lib/db/schema';
import { recordEvent } from '@/lib/webhooks/events';
import { landingAttribution } from './attribution';
import { analyticsAllowedSql } from './consent';
import { sessionEnded, sessionNotFound } from './errors';
import { closedEnd, expiryAfter, expiryAfterSql, hasLapsed, isLive, isLiveSql, lapsedEnd } from './lifetime';
import {
  type CreateSessionInput,
  type EndSessionInput,
  type SessionEvent,
  type SessionSummary,
  type UpdateSessionInput,
  type Visitor,
} from './schema';

export type SessionRow = typeof visitorSessions.$inferSelect;
type Json = Record<string, unknown>;

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

/** What the server derived for a new session (headers, bot check) and what consent lets it keep. */
export interface SessionStart {
  input: CreateSessionInput;
  now: number;
  isBot: boolean;
  device?: Json;
  browser?: Json;
  location?: Json;
  /** consent.analytics is false: keep only what the session itself needs. */
  analyticsAllowed: boolean;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Started = { row: SessionRow; isNew: boolean };
type VisitorRef = { id: string; leadId: string | null; isNew: boolean };
type StartItem = { siteId: string; start: SessionStart };

/**
 * Starts a session, or renews the fingerprint's active one at this site (§3.2). Concurrent
 * starts are grouped: one statement (one commit) per batch for every first-time visitor and every
 * returning one whose session is still live; only the rare rest takes a transaction of its own.
 */
export function startSession(siteId: string, start: SessionStart): Promise<Started> {
  return sharedBatcher('sessionStarts', startSessions).submit({ siteId, start });
}

const visitorKey = (item: StartItem) => `${item.siteId}|${item.start.input.fingerprint ?? ''}`;

/**
 * The batch in ONE statement: every visitor upserted at once (in (site, fingerprint) order, so
 * two batches always lock visitors in the same order), each first-time visitor's session inserted
 * (nobody else can have a session of a visitor this statement created), and each returning
 * visitor's live session renewed — for a returning visitor one indexed lookup of its open session
 * (`visitor_sessions_one_active_key`) and one write.
 *
 * The statement sees sessions as they stood when it began. What it cannot settle from that view
 * goes one by one, in key order, through `startAgain` in a transaction afterwards, where each
 * statement sees what was committed meanwhile: a returning visitor without a live session (the
 * old one is closed and a new one chained to it), one whose start raced a concurrent start (its
 * session was not there yet when the statement began), and a fingerprint's second start in the
 * batch.
 */
async function startSessions(items: StartItem[]): Promise<Started[]> {
  const order = items
    .map((item, i) => ({ item, i, key: visitorKey(item), proposedId: timeOrderedUuid(item.start.now) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  // The first start of each (site, fingerprint) takes part in the statement; a start without a
  // fingerprint is always a new visitor of its own.
  const seen = new Set<string>();
  const first: typeof order = [];
  const rest: typeof order = [];
  for (const o of order) {
    if (o.item.start.input.fingerprint != null && seen.has(o.key)) rest.push(o);
    else {
      seen.add(o.key);
      first.push(o);
    }
  }

  const results: Started[] = new Array(items.length);
  const settled = await startOrRenew(first);
  for (const o of first) {
    const done = settled.get(o.proposedId);
    if (done) results[o.i] = done;
    else rest.push(o);
  }
  if (rest.length) {
    rest.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
    const db = await getDb();
    await db.transaction(async (tx) => {
      for (const o of rest) results[o.i] = await startAgain(tx, o.item.siteId, o.item.start);
    });
  }
  return results;
}

/** The one statement of a batch (see startSessions): what it settled, by the start's proposed visitor id. */
async function startOrRenew(first: { item: StartItem; proposedId: string }[]): Promise<Map<string, Started>> {
  const starts = JSON.stringify(
    first.map(({ item: { siteId, start }, proposedId }, ord) => ({
      ord,
      id: proposedId,
      site_id: siteId,
      fingerprint: start.input.fingerprint ?? null,
      lead_id: start.input.lead_id ?? null,
      is_bot: start.isBot,
      at: start.now,
    })),
  );
  // Every start's session as a first-time visitor's (its visitor is the proposed one); the
  // statement inserts only those whose visitor it created.
  const fresh = tableRecords(
    visitorSessions,
    first.map(({ item: { siteId, start }, proposedId }) => ({
      id: timeOrderedUuid(start.now),
      ...sessionValues(siteId, start, { id: proposedId, leadId: start.input.lead_id ?? null, isNew: true }, undefined),
    })),
  );
  // Each row names its start by the proposed visitor id (`ref`) and says whether it renewed.
  const raw = await rows<Record<string, unknown> & { ref: string; renewed: boolean }>(sql`
    with input as (
      select * from jsonb_to_recordset(${starts}::jsonb)
        as t(ord int, id uuid, site_id uuid, fingerprint text, lead_id uuid, is_bot boolean, at bigint)
    ),
    upserted as (
      insert into visitors (id, site_id, fingerprint, lead_id, is_bot, first_seen_at, last_seen_at)
      select id, site_id, fingerprint, lead_id, is_bot, at, at from input order by ord
      -- The proposed row (excluded) carries the start's time and lead; no lead keeps the stored one.
      on conflict (site_id, fingerprint) do update
        set last_seen_at = excluded.last_seen_at, lead_id = coalesce(excluded.lead_id, visitors.lead_id)
      returning id, site_id, fingerprint
    ),
    returning_visitors as (
      select i.id as ref, u.id as visitor_id, i.lead_id, i.at
      from input i join upserted u on u.site_id = i.site_id and u.fingerprint = i.fingerprint
      where u.id <> i.id
    ),
    started as (
      insert into ${visitorSessions} (${fresh.columns})
      select ${fresh.columns} from jsonb_populate_recordset(null::visitor_sessions, ${fresh.json}::jsonb) s
      where s.visitor_id in (select id from upserted)
      returning *
    ),
    renewed as (
      update visitor_sessions s
      set last_activity_at = greatest(s.last_activity_at, r.at),
          updated_at = r.at,
          expires_at = ${expiryAfterSql(sql`s.created_at`, sql`r.at`)},
          lead_id = coalesce(r.lead_id, s.lead_id)
      from returning_visitors r
      where s.visitor_id = r.visitor_id and s.status = 'active' and s.expires_at > r.at
      returning s.*, r.ref
    )
    select started.*, started.visitor_id as ref, false as renewed from started
    union all
    select renewed.*, true from renewed
  `);
  const settled = new Map<string, Started>();
  const typed = tableRows(visitorSessions, raw);
  raw.forEach((r, i) => settled.set(String(r.ref), { row: typed[i], isNew: !r.renewed }));
  return settled;
}

/**
 * A start the batch's statement left over: its visitor exists now and is locked here (so starts
 * for one fingerprint go one after the other), then its live session is renewed or a new one starts.
 */
async function startAgain(tx: Tx, siteId: string, start: SessionStart): Promise<Started> {
  const { input, now } = start;
  const [visitor] = await tx
    .update(visitors)
    .set({ lastSeenAt: now, ...(input.lead_id ? { leadId: input.lead_id } : {}) })
    .where(and(eq(visitors.siteId, siteId), eq(visitors.fingerprint, input.fingerprint!)))
    .returning({ id: visitors.id, leadId: visitors.leadId });
  return continueStart(tx, siteId, start, { ...visitor, isNew: false });
}

/** After the visitor upsert: a returning visitor's live session is renewed, otherwise a new one starts. */
async function continueStart(tx: Tx, siteId: string, start: SessionStart, visitor: VisitorRef): Promise<Started> {
  const { input, now } = start;
  let previous: { id: string; createdAt: number } | undefined;
  if (input.fingerprint != null && !visitor.isNew) {
    const [open] = await tx
      .select()
      .from(visitorSessions)
      .where(and(eq(visitorSessions.visitorId, visitor.id), eq(visitorSessions.status, 'active')))
      .for('update');
    if (open && isLive(open, now)) {
      const [row] = await tx
        .update(visitorSessions)
        .set({
          lastActivityAt: Math.max(open.lastActivityAt, now),
          updatedAt: now,
          expiresAt: expiryAfter(open.createdAt, now),
          ...(input.lead_id ? { leadId: input.lead_id } : {}),
        })
        .where(eq(visitorSessions.id, open.id))
        .returning();
      return { row, isNew: false };
    }
    if (open) {
      // It ran out of time: it is closed now, as readers have shown it since.
      await expire(tx, open, now);
      previous = open;
    } else {
      [previous] = await tx
        .select({ id: visitorSessions.id, createdAt: visitorSessions.createdAt })
        .from(visitorSessions)
        .where(eq(visitorSessions.visitorId, visitor.id))
        .orderBy(desc(visitorSessions.createdAt), desc(visitorSessions.id))
        .limit(1);
    }
  }
  const [row] = await tx
    .insert(visitorSessions)
    .values({ id: timeOrderedUuid(now), ...sessionValues(siteId, start, visitor, previous) })
    .returning();
  return { row, isNew: true };
}

/** Marks a session that ran out of time as expired, with the end readers already show for it, and announces it. */
async function expire(tx: Tx, row: SessionRow, now: number): Promise<void> {
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

/**
 * The new session's row: what consent lets it keep, its source (./attribution.ts) and its link to
 * the visitor's previous session. `previous_session_at` is only ever the server's own link (a
 * client's `previous_session_id` for a visitor the server does not know is kept, not counted on).
 */
function sessionValues(
  siteId: string,
  start: SessionStart,
  visitor: VisitorRef,
  previous: { id: string; createdAt: number } | undefined,
): typeof visitorSessions.$inferInsert {
  const { input, now } = start;
  const keep = start.analyticsAllowed;
  const source = keep ? landingAttribution(input, input.url) : {};
  return {
    siteId,
    visitorId: visitor.id,
    fingerprint: input.fingerprint ?? null,
    leadId: input.lead_id ?? visitor.leadId ?? null,
    previousSessionId: previous?.id ?? input.previous_session_id ?? null,
    previousSessionAt: previous?.createdAt ?? null,
    url: keep ? (input.url ?? null) : null,
    currentUrl: keep ? (input.url ?? null) : null,
    referrer: source.referrer ?? null,
    utmSource: source.utm_source ?? null,
    utmMedium: source.utm_medium ?? null,
    utmCampaign: source.utm_campaign ?? null,
    utmTerm: source.utm_term ?? null,
    utmContent: source.utm_content ?? null,
    createdAt: now,
    startedAt: Math.min(input.started_at ?? now, now),
    lastActivityAt: now,
    updatedAt: now,
    expiresAt: expiryAfter(now, now),
    duration: input.duration ?? null,
    pageViews: input.page_views ?? 0,
    activeTime: input.active_time ?? null,
    idleTime: input.idle_time ?? null,
    exitUrl: input.exit_url ?? null,
    exitType: input.exit_type ?? null,
    device: keep ? (start.device ?? null) : null,
    browser: keep ? (start.browser ?? null) : null,
    location: keep ? (start.location ?? null) : null,
    performance: keep ? (input.performance ?? null) : null,
    consent: input.consent ?? null,
    customData: keep ? (input.custom_data ?? null) : null,
    isBot: start.isBot,
  };
}

export async function findSession(siteId: string, sessionId: string, q?: Db): Promise<SessionRow | undefined> {
  const db = q ?? (await getDb());
  const [row] = await db
    .select()
    .from(visitorSessions)
    .where(and(eq(visitorSessions.siteId, siteId), eq(visitorSessions.id, sessionId)))
    .limit(1);
  return row;
}

/** A session GET may show: active and unexpired, or closed by the end route. Otherwise 404. */
export async function readableSession(siteId: string, sessionId: string, now: number, q?: Db): Promise<SessionRow> {
  const row = await findSession(siteId, sessionId, q);
  if (!row || !(row.status === 'closed' || isLive(row, now))) throw sessionNotFound(sessionId, siteId);
  return row;
}

/**
 * A readable session and its events, read in one snapshot: its counters (events, page views,
 * conversions, current page) agree with the events listed, even while a batch of events commits
 * between the two reads.
 */
export async function readableSessionWithEvents(
  siteId: string,
  sessionId: string,
  now: number,
): Promise<{ row: SessionRow; events: SessionEvent[] }> {
  const db = await getDb();
  return db.transaction(
    async (tx) => {
      const row = await readableSession(siteId, sessionId, now, tx);
      return { row, events: await listEvents(siteId, row.id, tx) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** Why a write to this session was refused: missing/expired → 404, closed → 409. */
export async function refusal(siteId: string, sessionId: string): Promise<Error> {
  const row = await findSession(siteId, sessionId);
  return row?.status === 'closed' ? sessionEnded(sessionId, siteId) : sessionNotFound(sessionId, siteId);
}

export async function listEvents(siteId: string, sessionId: string, q?: Db): Promise<SessionEvent[]> {
  const db = q ?? (await getDb());
  const rows = await db
    .select()
    .from(sessionEvents)
    .where(and(eq(sessionEvents.siteId, siteId), eq(sessionEvents.sessionId, sessionId)))
    .orderBy(asc(sessionEvents.timestamp), asc(sessionEvents.receivedAt), asc(sessionEvents.id));
  return rows.map((e) => ({
    event_id: e.id,
    event_type: e.eventType,
    event_name: e.eventName,
    url: e.url,
    timestamp: e.timestamp,
    properties: e.properties,
  }));
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

export async function findVisitor(siteId: string, visitorId: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(visitors)
    .where(and(eq(visitors.siteId, siteId), eq(visitors.id, visitorId)))
    .limit(1);
  return row;
}

/** Links a visitor of the site to a lead (replacing an earlier link). False when the site has no such visitor. */
export async function setVisitorLead(siteId: string, visitorId: string, leadId: string): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .update(visitors)
    .set({ leadId })
    .where(and(eq(visitors.siteId, siteId), eq(visitors.id, visitorId)))
    .returning({ id: visitors.id });
  return updated.length > 0;
}

export async function listVisitors(siteId: string, limit: number, offset: number): Promise<{ items: Visitor[]; total: number }> {
  const db = await getDb();
  const sessionCount: SQL<number> = sql<number>`(select count(*)::int from visitor_sessions s where s.visitor_id = "visitors"."id")`;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({ v: visitors, sessionCount })
      .from(visitors)
      .where(eq(visitors.siteId, siteId))
      .orderBy(desc(visitors.lastSeenAt), desc(visitors.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(visitors).where(eq(visitors.siteId, siteId)),
  ]);
  return {
    total: n,
    items: rows.map(({ v, sessionCount }) => ({
      visitor_id: v.id,
      site_id: v.siteId,
      fingerprint: v.fingerprint,
      lead_id: v.leadId,
      is_bot: v.isBot,
      first_seen_at: v.firstSeenAt,
      last_seen_at: v.lastSeenAt,
      session_count: Number(sessionCount),
    })),
  };
}

/** Adds a visitor to a segment; adding again is harmless and keeps the first `added_at`. */
export async function addVisitorToSegment(siteId: string, visitorId: string, segmentId: string, now: number) {
  const db = await getDb();
  const [inserted] = await db.insert(visitorSegments).values({ siteId, visitorId, segmentId, addedAt: now }).onConflictDoNothing().returning();
  if (inserted) return { addedAt: inserted.addedAt, alreadyMember: false };
  const [existing] = await db
    .select()
    .from(visitorSegments)
    .where(and(eq(visitorSegments.visitorId, visitorId), eq(visitorSegments.segmentId, segmentId)))
    .limit(1);
  return { addedAt: existing.addedAt, alreadyMember: true };
}

/** Records a stored file of the site. */
export async function insertUpload(siteId: string, file: Omit<typeof visitorUploads.$inferInsert, 'siteId'>, on?: Db) {
  const db = on ?? (await getDb());
  const [inserted] = await db
    .insert(visitorUploads)
    .values({ ...file, siteId })
    .returning();
  return inserted;
}

/** Bytes of the files the site has stored (its upload quota counts these). */
export async function storedUploadBytes(siteId: string, on?: Db): Promise<number> {
  const db = on ?? (await getDb());
  const [row] = await db
    .select({ n: sql<string>`coalesce(sum(${visitorUploads.size}), 0)` })
    .from(visitorUploads)
    .where(eq(visitorUploads.siteId, siteId));
  return Number(row.n);
}
