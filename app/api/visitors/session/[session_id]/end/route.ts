import { preflight } from '@/lib/http/cors';
import { visitorRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import { END_SESSION_DESCRIPTION, endSessionBodySchema, sessionParamsSchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { closeSession } from '@/lib/visitors/service';

// POST /api/visitors/session/{session_id}/end — close a session (sendBeacon-friendly)
export const POST = visitorRoute({
  summary: 'End a visitor session',
  fastPath: 'every tracked page ends its session',
  description: END_SESSION_DESCRIPTION,
  params: sessionParamsSchema,
  body: endSessionBodySchema,
  bodyReading: { type: 'beacon' },
  response: SessionSummarySchema,
  errors: ['session_not_found'],
  handler: ({ siteId, params, body, res, startedAt }) => withSessionMeta(res, startedAt, closeSession(siteId, params.session_id, body)),
});

export const OPTIONS = preflight(['POST']);
