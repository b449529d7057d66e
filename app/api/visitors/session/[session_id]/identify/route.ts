import { preflight } from '@/lib/http/cors';
import { visitorRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import { identifySessionBodySchema, sessionParamsSchema, SessionIdentifiedSchema } from '@/lib/visitors/schema';
import { identifySession } from '@/lib/visitors/service';

// POST /api/visitors/session/{session_id}/identify — bind an existing lead to the session and its visitor
export const POST = visitorRoute({
  summary: 'Bind a lead to a session',
  fastPath: 'tracked pages identify their visitor',
  description:
    'The lead must belong to the site (404 NOT_FOUND otherwise). The lead is set on the session and on its visitor, so the ' +
    "visitor's later sessions carry it too. `lead_data` is stored with the session. Closed sessions may be identified; " +
    'missing or expired ones are 404 `session_not_found`.',
  params: sessionParamsSchema,
  body: identifySessionBodySchema,
  response: SessionIdentifiedSchema,
  errors: ['session_not_found', 'NOT_FOUND'],
  handler: ({ siteId, params, body, res, startedAt }) => withSessionMeta(res, startedAt, identifySession(siteId, params.session_id, body)),
});

export const OPTIONS = preflight(['POST']);
