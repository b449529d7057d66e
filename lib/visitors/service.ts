import { now } from '@/lib/core/clock';
import { ApiError, found, notFound } from '@/lib/core/errors';
import { isLive } from '@/lib/db/visitor-session-lifetime';
import { findLead, findLeadByEmail, upsertLeadByEmail } from '@/lib/leads/service';
import { assertSegmentOfSite } from '@/lib/segments/service';
import { clientInfo, merged } from './client-info';
import { analyticsAllowed } from './consent';
import { eventLimitReached } from './errors';
import { readableSessionWithEvents, recordEvent } from './events-repo';
import { anonymousLocation, visitPrivacy } from './privacy';
import {
  API_VERSION,
  MAX_EVENTS_PER_SESSION,
  NECESSARY_EVENT_TYPES,
  type CreateSessionInput,
  type EndSessionInput,
  type SessionListQuery,
  type TrackInput,
  type UpdateSessionInput,
} from './schema';
import { startSession } from './session-starts-repo';
import {
  bindLead,
  closeExpiredSessions as closeLapsed,
  endSession,
  findSession,
  listSessions,
  readableSession,
  refusal,
  toSessionSummary,
  updateSession,
  type SessionListFilter,
  type SessionRow,
} from './sessions-repo';
import { addVisitorToSegment, findVisitor, setVisitorLead } from './visitors-repo';

/** `meta` of every session response (§2.4): API version, server time, time spent. */
export const sessionMeta = (startedAt: number) => ({
  api_version: API_VERSION,
  server_time: now(),
  processing_time: Math.round((performance.now() - startedAt) * 100) / 100,
});

const ttlOf = (row: Pick<SessionRow, 'expiresAt' | 'status'>, at: number) =>
  row.status === 'active' ? Math.max(0, Math.round((row.expiresAt - at) / 1000)) : 0;

export const sessionUrl = (siteId: string, sessionId: string) => `/api/visitors/session?session_id=${sessionId}&site_id=${siteId}`;

async function requireLead(siteId: string, leadId: string) {
  return found(await findLead(siteId, leadId), 'Lead');
}

/**
 * Starts a session or joins the visitor's open one. `clientAddress` is the caller's IP address: it
 * only enters an anonymous visitor's daily id (./privacy.ts), and is never stored.
 */
export async function createSession(siteId: string, input: CreateSessionInput, req: Request, clientAddress: string) {
  if (input.lead_id) await requireLead(siteId, input.lead_id);
  // A chain link to another site's (or no) session is refused like any unknown id.
  if (input.previous_session_id) found(await findSession(siteId, input.previous_session_id), 'Previous session');
  const at = now();
  const info = clientInfo(req);
  const privacy = await visitPrivacy(siteId, input, req, clientAddress, at);
  const location = merged(info.location, input.location);
  const { row, isNew } = await startSession(siteId, {
    input: { ...input, fingerprint: privacy.fingerprint },
    now: at,
    isBot: info.isBot,
    device: merged(info.device, input.device),
    browser: merged(info.browser, input.browser),
    location: privacy.anonymous ? anonymousLocation(location) : location,
    analyticsAllowed: analyticsAllowed(input.consent),
  });
  return {
    isNew,
    data: {
      session_id: row.id,
      visitor_id: row.visitorId,
      // An anonymous visitor's daily id is nobody's to keep.
      fingerprint: privacy.anonymous ? null : row.fingerprint,
      site_id: row.siteId,
      created_at: row.createdAt,
      ...(isNew ? {} : { last_activity_at: row.lastActivityAt }),
      expires_at: row.expiresAt,
      ttl: ttlOf(row, at),
      session_url: sessionUrl(siteId, row.id),
      is_new_session: isNew,
      previous_session_id: row.previousSessionId,
      is_bot: row.isBot,
      anonymous: privacy.anonymous,
    },
  };
}

export async function sessionDetail(siteId: string, sessionId: string) {
  const at = now();
  const { row, events } = await readableSessionWithEvents(siteId, sessionId, at);
  return {
    ...toSessionSummary(row, at),
    ttl: ttlOf(row, at),
    session_url: sessionUrl(siteId, row.id),
    events,
  };
}

export async function touchSession(siteId: string, input: UpdateSessionInput) {
  const at = now();
  const row = await updateSession(siteId, input, at);
  return {
    session_id: row.id,
    visitor_id: row.visitorId,
    fingerprint: row.fingerprint,
    last_activity_at: row.lastActivityAt,
    updated_at: row.updatedAt,
    expires_at: row.expiresAt,
    ttl: ttlOf(row, at),
  };
}

export async function closeSession(siteId: string, sessionId: string, input: EndSessionInput) {
  const at = now();
  return toSessionSummary(await endSession(siteId, sessionId, input, at), at);
}

export async function identifySession(siteId: string, sessionId: string, input: { lead_id: string; lead_data?: Record<string, unknown> }) {
  await requireLead(siteId, input.lead_id);
  const row = await bindLead(siteId, sessionId, input.lead_id, now(), input.lead_data);
  return { session_id: row.id, visitor_id: row.visitorId, lead_id: input.lead_id };
}

/** POST /api/visitors/track: one event, durable before the answer, renewing the session. */
export async function trackEvent(siteId: string, input: TrackInput) {
  const at = now();
  const outcome = await recordEvent({
    siteId,
    sessionId: input.session_id,
    visitorId: input.visitor_id ?? null,
    eventType: input.event_type,
    eventName: input.event_name ?? null,
    url: input.url ?? null,
    timestamp: input.timestamp ?? at,
    properties: input.properties ?? null,
    necessary: NECESSARY_EVENT_TYPES.includes(input.event_type),
    receivedAt: at,
  });
  if (outcome.status === 'refused') {
    const row = await findSession(siteId, input.session_id);
    if (row && isLive(row, at) && input.visitor_id && input.visitor_id !== row.visitorId) {
      throw new ApiError('INVALID_REQUEST', "visitor_id is not this session's visitor", { session_id: row.id, visitor_id: input.visitor_id });
    }
    throw await refusal(siteId, input.session_id);
  }
  if (outcome.status === 'cap') throw eventLimitReached(input.session_id, siteId, MAX_EVENTS_PER_SESSION);
  return {
    event_id: outcome.status === 'stored' ? outcome.eventId : null,
    session_id: input.session_id,
    visitor_id: outcome.visitorId,
    event_type: input.event_type,
    timestamp: input.timestamp ?? at,
    stored: outcome.status === 'stored',
    expires_at: outcome.expiresAt,
  };
}

/**
 * POST /api/visitors/identify: the site's lead for this email (created or updated), bound to the
 * visitor and, when session_id is given, to that session. Either id names the visitor; when both
 * are given they must agree.
 */
export async function identifyVisitor(
  siteId: string,
  input: { session_id?: string; visitor_id?: string; email: string; firstName?: string; lastName?: string },
) {
  const at = now();
  if (input.session_id) {
    const session = await readableSession(siteId, input.session_id, at);
    if (input.visitor_id && input.visitor_id !== session.visitorId) {
      throw new ApiError('INVALID_REQUEST', "visitor_id is not this session's visitor", { session_id: session.id, visitor_id: input.visitor_id });
    }
  } else found(await findVisitor(siteId, input.visitor_id!), 'Visitor');
  const { lead, isNew } = await leadForPerson(siteId, input);
  if (input.session_id) {
    const row = await bindLead(siteId, input.session_id, lead.id, at);
    return { lead_id: lead.id, visitor_id: row.visitorId, session_id: row.id, email: lead.email, name: lead.name, is_new_lead: isNew };
  }
  // The visitor was found above; only its deletion in between can make this miss.
  if (!(await setVisitorLead(siteId, input.visitor_id!, lead.id))) throw notFound('Visitor');
  return { lead_id: lead.id, visitor_id: input.visitor_id!, session_id: null, email: lead.email, name: lead.name, is_new_lead: isNew };
}

/** The site's lead for this email: created, or its name updated when one is given. */
async function leadForPerson(siteId: string, input: { email: string; firstName?: string; lastName?: string }) {
  const name = [input.firstName, input.lastName]
    .map((s) => s?.trim())
    .filter(Boolean)
    .join(' ');
  const existing = await findLeadByEmail(siteId, input.email);
  const lead =
    existing && !name
      ? existing
      : await upsertLeadByEmail(siteId, { email: input.email, name: name || input.email.split('@')[0], origin: 'visitor_identify' });
  return { lead, isNew: !existing };
}

export async function addToSegment(siteId: string, input: { visitor_id: string; segment_id: string }) {
  found(await findVisitor(siteId, input.visitor_id), 'Visitor');
  await assertSegmentOfSite(siteId, input.segment_id);
  const { addedAt, alreadyMember } = await addVisitorToSegment(siteId, input.visitor_id, input.segment_id, now());
  return { visitor_id: input.visitor_id, segment_id: input.segment_id, added_at: addedAt, already_member: alreadyMember };
}

/** The site's sessions, newest first, for the console's list: by visitor, lead, source (any case), identification, people or bots. */
export function siteSessions(siteId: string, f: SessionListFilter) {
  return listSessions(siteId, f, now());
}

export async function sessionsOfVisitor(siteId: string, visitorId: string, q: SessionListQuery) {
  found(await findVisitor(siteId, visitorId), 'Visitor');
  return listSessions(siteId, { visitorId, from: q.from, to: q.to, limit: q.limit, offset: q.offset }, now());
}

export async function sessionsOfLead(siteId: string, leadId: string, q: SessionListQuery) {
  await requireLead(siteId, leadId);
  return listSessions(siteId, { leadId, from: q.from, to: q.to, limit: q.limit, offset: q.offset }, now());
}

/**
 * Closes sessions that ran out of time while their visitors stayed away (see the repo function):
 * for a periodic job, so stored rows and session.ended webhooks follow expiry without waiting for
 * the visitor's return. Answers how many it closed; call again while it answers `limit`.
 */
export function closeExpiredSessions(at: number = now(), limit = 500): Promise<number> {
  return closeLapsed(at, limit);
}

export { findVisitor, listVisitors } from './visitors-repo';
