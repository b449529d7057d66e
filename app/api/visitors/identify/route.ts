import { policies } from '@/lib/http/auth/policies';
import { preflight } from '@/lib/http/cors';
import { defineRoute } from '@/lib/http/define-route';
import { VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { IdentifiedSchema, identifyBodySchema } from '@/lib/visitors/schema';
import { identifyVisitor, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/identify — a person's email (and name) becomes the site's lead, bound to the session and visitor
// fast path — tracked pages identify their visitor
export const POST = defineRoute({
  summary: 'Identify the visitor of a session',
  description:
    "Creates the site's lead for `email` (stored lower-case; one lead per email per site) or, when it exists, updates its " +
    'name from `firstName`/`lastName` if given; then binds the lead to the visitor, and to the session when `session_id` ' +
    'is given. The visitor is named by `session_id`, `visitor_id` or both; both must then agree (else 400 ' +
    '`INVALID_REQUEST`). An unknown session is 404 `session_not_found`, an unknown visitor 404 `NOT_FOUND`.',
  tags,
  auth: policies.visitor,
  rateLimit: VISITOR_RATE_LIMIT,
  body: identifyBodySchema,
  response: IdentifiedSchema,
  errors: ['session_not_found', 'NOT_FOUND'],
  handler: async ({ siteId, body, res, startedAt }) => {
    const data = await identifyVisitor(siteId, body);
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
