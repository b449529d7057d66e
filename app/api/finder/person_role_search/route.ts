import { searchPeople } from '@/lib/finder/calls';
import { paramsOf, PersonSearchResponseSchema, searchBodySchema } from '@/lib/finder/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/finder/person_role_search — one page of people whose roles match the provider's search parameters
export const POST = defineRoute({
  summary: 'Search people by role',
  description:
    "Passes the provider's search parameters through (after a check of their shape and size: snake_case names, JSON values, " +
    '≤ 50 parameters, ≤ 16 KiB) and answers one page of matching people. Costs 1 credit per page, charged only when the ' +
    'provider answers; 402 INSUFFICIENT_CREDITS before any provider call when the balance or the monthly cap cannot cover it. ' +
    'A provider failure answers 502 PROVIDER_ERROR (refunded), the provider rate limiting 429 with its Retry-After.',
  tags: ['Finder'],
  auth: policies.keyWrite,
  body: searchBodySchema,
  response: PersonSearchResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_ERROR', 'PROVIDER_NOT_CONFIGURED', 'RATE_LIMITED'],
  handler: ({ siteId, body }) => searchPeople(siteId, paramsOf(body), body.page),
});
