import { autocomplete } from '@/lib/finder/calls';
import { autocompleteParams, autocompleteQuery, AutocompleteResponseSchema } from '@/lib/finder/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// GET /api/finder/autocomplete/{category} — values of a search filter matching some text
export const GET = defineRoute({
  summary: 'Autocomplete a search filter',
  description:
    "Values of one of the provider's search filters (industry, location, job_title, skill, organization, …) whose names " +
    'match `q`, with the ids to use in person_role_search. Free.',
  tags: ['Finder'],
  auth: policies.keyRead,
  params: autocompleteParams,
  query: autocompleteQuery,
  response: AutocompleteResponseSchema,
  errors: ['PROVIDER_ERROR', 'PROVIDER_NOT_CONFIGURED', 'RATE_LIMITED'],
  handler: ({ siteId, params, query }) => autocomplete(siteId, params.category, query.q, query.page),
});
