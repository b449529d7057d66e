import { preflight } from '@/lib/http/cors';
import { visitorRoute, withSessionMeta } from '@/lib/http/visitor-policy';
import { IdentifiedSchema, identifyBodySchema } from '@/lib/visitors/schema';
import { identifyVisitor } from '@/lib/visitors/service';

// POST /api/visitors/identify — a person's email (and name) becomes the site's lead, bound to the session and visitor
export const POST = visitorRoute({
  summary: 'Identify the visitor of a session',
  fastPath: 'tracked pages identify their visitor',
  description:
    "Creates the site's lead for `email` (stored lower-case; one lead per email per site) or, when it exists, updates its " +
    'name from `firstName`/`lastName` if given; then binds the lead to the visitor, and to the session when `session_id` ' +
    'is given. The visitor is named by `session_id`, `visitor_id` or both; both must then agree (else 400 ' +
    '`INVALID_REQUEST`). An unknown session is 404 `session_not_found`, an unknown visitor 404 `NOT_FOUND`.',
  body: identifyBodySchema,
  response: IdentifiedSchema,
  errors: ['session_not_found', 'NOT_FOUND'],
  handler: ({ siteId, body, res, startedAt }) => withSessionMeta(res, startedAt, identifyVisitor(siteId, body)),
});

export const OPTIONS = preflight(['POST']);
