import { policies } from '@/lib/http/auth/policies';
import { preflight } from '@/lib/http/cors';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { END_SESSION_DESCRIPTION, endSessionByBodySchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { closeSession, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/session/end — close a session named in the body (what the snippet's page-hide beacon calls)
// fast path — every tracked page ends its session
export const POST = defineRoute({
  summary: 'End a visitor session (session_id in the body)',
  description: END_SESSION_DESCRIPTION,
  tags,
  auth: policies.visitor,
  rateLimit: VISITOR_RATE_LIMIT,
  body: endSessionByBodySchema,
  bodyReading: { type: 'beacon' },
  response: SessionSummarySchema,
  errors: ['session_not_found'],
  handler: async ({ siteId, body: { session_id, ...end }, res, startedAt }) => {
    const data = await closeSession(siteId, session_id, end);
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
