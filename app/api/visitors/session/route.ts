import { clientIp } from '@/lib/http/client-ip';
import { preflight } from '@/lib/http/cors';
import { visitorReadRoute, visitorRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import {
  createSessionBodySchema,
  CreatedSessionSchema,
  SessionDetailSchema,
  sessionQuerySchema,
  UpdatedSessionSchema,
  updateSessionBodySchema,
} from '@/lib/visitors/schema';
import { createSession, sessionDetail, sessionMeta, touchSession } from '@/lib/visitors/service';

// POST /api/visitors/session — start a session, or reuse the fingerprint's active one at this site
export const POST = visitorRoute({
  summary: 'Start or resume a visitor session',
  fastPath: 'every tracked page starts or resumes a session',
  description:
    'Creates a session (201, `is_new_session: true`, TTL 1800 s). When the fingerprint already has an active session at this ' +
    'site, that session is returned (200, `is_new_session: false`, fresh `last_activity_at`, renewed expiry). A fingerprint ' +
    'whose last session expired or was closed gets a new session chained by `previous_session_id`; the visitor stays the same. ' +
    'Device, browser and location missing from the body are filled from User-Agent, Accept-Language and edge geo headers. ' +
    'Bot User-Agents are flagged (`is_bot`). With `consent.analytics: false` only the session itself is kept (no URLs, ' +
    'referrer, UTM, device, browser, location, performance or custom_data). In cookieless mode, or when the browser asks not to be ' +
    'tracked and the site honours it (`privacy_signal`, settings `tracking`), the visit is anonymous (`anonymous: true`): the ' +
    'visitor is a daily id computed from the site, IP address and User-Agent, the fingerprint sent is ignored, and only the ' +
    'country of the location is kept. From a browser: no key, Origin must be the site domain.',
  body: createSessionBodySchema,
  response: CreatedSessionSchema,
  status: 201,
  openapi: { alsoSucceeds: { 200: 'An open session of the same visitor was reused' } },
  errors: ['NOT_FOUND'],
  handler: async ({ siteId, body, req, res, startedAt }) => {
    const { data, isNew } = await createSession(siteId, body, req, clientIp(req));
    res.status = isNew ? 201 : 200;
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

// GET /api/visitors/session — a session with its events (closed sessions stay readable)
export const GET = visitorReadRoute({
  summary: 'Get a visitor session',
  fastPath: 'the sessions tracked pages write are read at their rate',
  description: 'The session and its events, oldest first. A missing or expired session is 404 `session_not_found`.',
  query: sessionQuerySchema,
  response: SessionDetailSchema,
  errors: ['session_not_found'],
  handler: ({ siteId, query, res, startedAt }) => withSessionMeta(res, startedAt, sessionDetail(siteId, query.session_id)),
});

// PUT /api/visitors/session — activity ping: counters, current URL; renews the 30-minute expiry
export const PUT = visitorRoute({
  summary: 'Update a visitor session',
  fastPath: 'every tracked page pings its session',
  description:
    'Records activity and renews the expiry (30 minutes from now, never past 24 hours after the start). `consent` may be ' +
    'updated here. A closed session answers 409 CONFLICT; a missing or expired one 404 `session_not_found`.',
  body: updateSessionBodySchema,
  response: UpdatedSessionSchema,
  errors: ['session_not_found', 'CONFLICT'],
  handler: ({ siteId, body, res, startedAt }) => withSessionMeta(res, startedAt, touchSession(siteId, body)),
});

export const OPTIONS = preflight(['POST', 'PUT']);
