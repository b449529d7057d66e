import { countPeople } from '@/lib/finder/calls';
import { paramsOf, totalsBodySchema, TotalsResponseSchema } from '@/lib/finder/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/finder/person_role_search/totals — how many people match the provider's search parameters
export const POST = defineRoute({
  summary: 'Count people matching a role search',
  description:
    'Same parameters as person_role_search (without `page`); answers the total count of matching people. Costs 1 credit, ' +
    'charged only when the provider answers (402 INSUFFICIENT_CREDITS before any provider call when short).',
  tags: ['Finder'],
  auth: policies.keyWrite,
  body: totalsBodySchema,
  response: TotalsResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_ERROR', 'PROVIDER_NOT_CONFIGURED', 'RATE_LIMITED'],
  handler: ({ siteId, body }) => countPeople(siteId, paramsOf(body)),
});
