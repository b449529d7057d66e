import { searchOrganizations } from '@/lib/finder/calls';
import { IcpSearchResponseSchema, paramsOf, searchBodySchema } from '@/lib/finder/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/finder/icp — organizations matching an ideal-client profile
export const POST = defineRoute({
  summary: 'Search organizations matching an ideal-client profile',
  description:
    "The provider's organization search: its parameters (industries, locations, employee ranges, technologies, …) are " +
    'passed through after the same shape and size check as person_role_search, and one page of organizations comes back. ' +
    'Costs 1 credit per page, charged only when the provider answers.',
  tags: ['Finder'],
  auth: policies.keyWrite,
  body: searchBodySchema,
  response: IcpSearchResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_ERROR', 'PROVIDER_NOT_CONFIGURED', 'RATE_LIMITED'],
  handler: ({ siteId, body }) => searchOrganizations(siteId, paramsOf(body), body.page),
});
