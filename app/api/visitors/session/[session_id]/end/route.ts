import { policies } from '@/lib/http/auth/policies';
import { preflight } from '@/lib/http/cors';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { END_SESSION_DESCRIPTION, endSessionBodySchema, sessionParamsSchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { closeSession, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/session/{session_id}/end — close a session (sendBeacon-friendly)
// fast path — every tracked page ends its session
export const POST = defineRoute({
  summary: 'End a visitor session',
  description: END_SESSION_DESCRIPTION,
  tags,
  auth: policies.visitor,
  rateLimit: VISITOR_RATE_LIMIT,
  params: sessionParamsSchema,
  body: endSessionBodySchema,
  bodyReading: { type: 'beacon' },
  response: SessionSummarySchema,
  errors: ['session_not_found'],
  handler: async ({ siteId, params, body, res, startedAt }) => {
    const data = await closeSession(siteId, params.session_id, body);
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
