import { and, desc, eq, sql } from 'drizzle-orm';
import { timeOrderedUuid } from '@/lib/core/ids';
import { sharedBatcher } from '@/lib/db/batch';
import { getDb } from '@/lib/db/client';
import { rows, tableRecords, tableRows } from '@/lib/db/raw';
import { visitorSessions, visitors } from '@/lib/db/schema';
import { expiryAfter, expiryAfterSql, isLive } from '@/lib/db/visitor-session-lifetime';
import { landingAttribution } from './attribution';
import type { CreateSessionInput } from './schema';
import { expire, type SessionRow, type Tx } from './sessions-repo';

type Json = Record<string, unknown>;

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
