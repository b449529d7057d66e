import { policies } from '@/lib/http/auth/policies';
import { preflight } from '@/lib/http/cors';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { identifySessionBodySchema, sessionParamsSchema, SessionIdentifiedSchema } from '@/lib/visitors/schema';
import { identifySession, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/session/{session_id}/identify — bind an existing lead to the session and its visitor
// fast path — tracked pages identify their visitor
export const POST = defineRoute({
  summary: 'Bind a lead to a session',
  description:
    'The lead must belong to the site (404 NOT_FOUND otherwise). The lead is set on the session and on its visitor, so the ' +
    "visitor's later sessions carry it too. `lead_data` is stored with the session. Closed sessions may be identified; " +
    'missing or expired ones are 404 `session_not_found`.',
  tags,
  auth: policies.visitor,
  rateLimit: VISITOR_RATE_LIMIT,
  params: sessionParamsSchema,
  body: identifySessionBodySchema,
  response: SessionIdentifiedSchema,
  errors: ['session_not_found', 'NOT_FOUND'],
  handler: async ({ siteId, params, body, res, startedAt }) => {
    const data = await identifySession(siteId, params.session_id, body);
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
