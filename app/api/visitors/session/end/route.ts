import { preflight } from '@/lib/http/cors';
import { visitorRoute } from '@/lib/http/visitor-policy';
import { END_SESSION_DESCRIPTION, endSessionByBodySchema, SessionSummarySchema } from '@/lib/visitors/schema';
import { closeSession, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/session/end — close a session named in the body (what the snippet's page-hide beacon calls)
export const POST = visitorRoute({
  summary: 'End a visitor session (session_id in the body)',
  fastPath: 'every tracked page ends its session',
  description: END_SESSION_DESCRIPTION,
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
