import { preflight } from '@/lib/http/cors';
import { defineRoute } from '@/lib/http/define-route';
import { visitorAuth, VISITOR_RATE_LIMIT, VISITOR_TAGS as tags } from '@/lib/http/visitor-policy';
import { IdentifiedSchema, identifyBodySchema } from '@/lib/visitors/schema';
import { identifyVisitor, sessionMeta } from '@/lib/visitors/service';

// POST /api/visitors/identify — a person's email (and name) becomes the site's lead, bound to the session and visitor
export const POST = defineRoute({
  summary: 'Identify the visitor of a session',
  description:
    "Creates the site's lead for `email` (stored lower-case; one lead per email per site) or, when it exists, updates its " +
    'name from `firstName`/`lastName` if given; then binds the lead to the session and its visitor.',
  tags,
  auth: visitorAuth,
  rateLimit: VISITOR_RATE_LIMIT,
  body: identifyBodySchema,
  response: IdentifiedSchema,
  errors: ['session_not_found'],
  handler: async ({ siteId, body, res, startedAt }) => {
    const data = await identifyVisitor(siteId, body);
    res.meta = sessionMeta(startedAt);
    return data;
  },
});

export const OPTIONS = preflight(['POST']);
