import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { timeOrderedUuid } from '@/lib/core/ids';
import { INT4_MAX } from '@/lib/core/schemas';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb, type Db } from '@/lib/db/client';
import { changedRows, rows } from '@/lib/db/raw';
import { sessionEvents } from '@/lib/db/schema';
import { expiryAfterSql, isLiveSql } from '@/lib/db/visitor-session-lifetime';
import { MAX_EVENTS_PER_SESSION, type SessionEvent } from './schema';
import { analyticsAllowedSql, readableSession, type SessionRow } from './sessions-repo';

/** One tracking event on its way to the database. */
export interface EventWrite {
  eventId: string;
  siteId: string;
  sessionId: string;
  visitorId: string | null;
  eventType: string;
  eventName: string | null;
  url: string | null;
  timestamp: number;
  properties: Record<string, unknown> | null;
  /** Stored even when the session's consent.analytics is false. */
  necessary: boolean;
  receivedAt: number;
}

export type EventOutcome =
  /** The session is missing, expired, closed, or not this visitor's: the caller finds out which. */
  { status: 'refused' } | { status: 'stored' | 'skipped' | 'cap'; visitorId: string; expiresAt: number };

/**
 * The ONE statement that writes a batch of events (one transaction, one commit): the sessions are
 * locked, each event is checked against its session (live, same site and visitor, consent,
 * the 1,000-event cap counted in arrival order), accepted events are inserted, and every
 * session that took activity gets its expiry renewed and its counters bumped.
 *
 * Its text is the same for every batch, so the embedded database keeps it planned once (a generic
 * plan, lib/db/statement-cache.ts). That plan cannot depend on the batch: the sessions are read
 * and renewed by primary key alone — whether a session is live is checked after its row is locked,
 * so no other index of visitor_sessions can serve the lookup (`visitor_sessions_active_idx`, chosen
 * for the live condition, read every live session of the site per batch once they were many).
 */
export function eventBatchSql(batch: EventWrite[]): SQL {
  const now = Math.max(...batch.map((e) => e.receivedAt));
  const input = JSON.stringify(
    batch.map((e, ord) => ({
      ord,
      event_id: e.eventId,
      site_id: e.siteId,
      session_id: e.sessionId,
      visitor_id: e.visitorId,
      event_type: e.eventType,
      event_name: e.eventName,
      url: e.url,
      ts: e.timestamp,
      properties: e.properties,
      necessary: e.necessary,
      received_at: e.receivedAt,
    })),
  );
  const sessionIds = `{${[...new Set(batch.map((e) => e.sessionId))].join(',')}}`;
  return sql`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as t(
        ord int, event_id uuid, site_id uuid, session_id uuid, visitor_id uuid, event_type text,
        event_name text, url text, ts bigint, properties jsonb, necessary boolean, received_at bigint)
    ),
    live as (
      select s.id, s.site_id, s.visitor_id, s.event_count, s.created_at, s.status, s.expires_at,
             ${analyticsAllowedSql(sql`s.consent`)} as analytics
      from visitor_sessions s
      where s.id = any(${sessionIds}::uuid[])
      -- One lock order for every batch, so concurrent batches cannot deadlock.
      order by s.id
      for update
    ),
    valid as (
      select i.*, l.visitor_id as session_visitor, l.created_at as session_created,
             (i.necessary or l.analytics) as allowed,
             l.event_count + count(*) filter (where i.necessary or l.analytics)
               over (partition by i.session_id order by i.ord) as n
      from input i
      join live l on l.id = i.session_id and l.site_id = i.site_id
      where (i.visitor_id is null or i.visitor_id = l.visitor_id) and ${isLiveSql(now, 'l')}
    ),
    outcome as (
      select *,
             case when not allowed then 'skipped' when n <= ${MAX_EVENTS_PER_SESSION} then 'stored' else 'cap' end as status
      from valid
    ),
    inserted as (
      insert into session_events (id, site_id, session_id, visitor_id, event_type, event_name, url, "timestamp", properties, received_at)
      select event_id, site_id, session_id, session_visitor, event_type, event_name, url, ts, properties, received_at
      from outcome where status = 'stored'
    ),
    renewed as (
      update visitor_sessions s
      set event_count = s.event_count + a.stored,
          -- A client may set page_views up to the integer maximum; counting on from there must not overflow.
          page_views = least(s.page_views::bigint + a.pageviews, ${INT4_MAX})::int,
          conversions = s.conversions + a.conversions,
          -- The page the visitor is on: the last page view stored (its exit page if the session times out).
          current_url = coalesce(a.last_page, s.current_url),
          last_activity_at = greatest(s.last_activity_at, a.at),
          updated_at = a.at,
          expires_at = ${expiryAfterSql(sql`s.created_at`, sql`a.at`)}
      from (
        select session_id, max(received_at) as at,
               count(*) filter (where status = 'stored') as stored,
               count(*) filter (where status = 'stored' and event_type = 'pageview') as pageviews,
               count(*) filter (where status = 'stored' and event_type = 'conversion') as conversions,
               (array_agg(url order by ord desc) filter (where status = 'stored' and event_type = 'pageview' and url is not null))[1] as last_page
        from outcome where status <> 'cap' group by session_id
      ) a
      where s.id = a.session_id
    )
    select ord, status, session_visitor as visitor_id,
           ${expiryAfterSql(sql`session_created`, sql`received_at`)}::float8 as expires_at
    from outcome
  `;
}

async function writeEvents(batch: EventWrite[]): Promise<EventOutcome[]> {
  const result = await rows<{ ord: number; status: 'stored' | 'skipped' | 'cap'; visitor_id: string; expires_at: number }>(eventBatchSql(batch));
  const byOrd = new Map(result.map((r) => [Number(r.ord), r]));
  return batch.map((_, ord) => {
    const r = byOrd.get(ord);
    return r ? { status: r.status, visitorId: r.visitor_id, expiresAt: Number(r.expires_at) } : { status: 'refused' };
  });
}

// Group commit: concurrent events share one statement and one commit.
const writer = sharedBatcher('events', writeEvents);

/** Records one event; resolves once it is committed (or refused). */
export function recordEvent(event: Omit<EventWrite, 'eventId'>): Promise<EventOutcome & { eventId: string }> {
  // Time-ordered: events are inserted at the end of the primary key index, not on random pages of it.
  const eventId = timeOrderedUuid(event.receivedAt);
  return writer.submit({ ...event, eventId }).then((o) => ({ ...o, eventId }));
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

/** Retention (lib/worker/retention.ts): deletes up to `limit` events of the site received before `cutoff` (epoch ms), oldest first. */
export const pruneSessionEvents = (siteId: string, cutoff: number, limit: number): Promise<number> =>
  changedRows(sql`delete from session_events where id in (
    select id from session_events where site_id = ${siteId}::uuid and received_at < ${cutoff} order by received_at limit ${limit})`);
