import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { countPeople, searchVenues } from '@/lib/finder/calls';
import {
  createQueryBodySchema,
  CreateQueryResponseSchema,
  searchQuerySchema,
  TotalsResponseSchema,
  venueSearchInput,
  VenueSearchResponseSchema,
} from '@/lib/finder/schema';
import { createRoleQuery } from '@/lib/finder/service';
import { FinderCategorySchema, peopleDataProvider } from '@/lib/providers/people-data';
import { defineTool } from './define-tool';

export const getFinderCategoryIdsTool = defineTool({
  name: 'getFinderCategoryIds',
  effect: 'read',
  external: true,
  path: 'getFinderCategoryIds',
  title: 'Find people-search category ids',
  description:
    'Looks up, at the people-data provider, the category ids (industries, locations, job titles, …) whose names match `query`, for use in person role searches. Answers 503 PROVIDER_NOT_CONFIGURED when no provider is configured and 502 PROVIDER_ERROR when the provider fails.',
  scope: 'read',
  input: z.strictObject({
    site_id: siteIdSchema,
    query: z.string().trim().min(1).max(200).describe('Free text to match against category names (e.g. "software", "Madrid")'),
  }),
  output: z.object({ query: z.string(), results: z.array(FinderCategorySchema) }),
  errors: ['PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR'],
  run: async (_ctx, { query }) => ({ query, results: await peopleDataProvider().searchCategoryIds(query) }),
});

export const analyzeICPTotalCountTool = defineTool({
  name: 'analyzeICPTotalCount',
  effect: 'append',
  external: true,
  path: 'analyzeICPTotalCount',
  title: 'Count the people an ICP search finds',
  description:
    "Counts, at the people-data provider, the people matching a search (the provider's parameters, e.g. role_title, person_locations, organization_industries) — to size an ideal-client profile before mining it. Costs 1 finder credit, charged only when the provider answers; 402 INSUFFICIENT_CREDITS when the site's balance or monthly cap cannot cover it.",
  scope: 'write',
  input: z.strictObject({ site_id: siteIdSchema, query: searchQuerySchema }),
  output: TotalsResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR', 'RATE_LIMITED'],
  run: (ctx, { query }) => countPeople(ctx.siteId, query),
});

export const createIcpMiningTool = defineTool({
  name: 'createIcpMining',
  effect: 'append',
  external: true,
  path: 'createIcpMining',
  title: 'Mine leads for an ICP search',
  description:
    "Saves a role query (deduplicated by its normalised query within the site), links `segment_id` if given, and starts an idealClientProfileMining run that creates up to `total_targets` new leads from the people-data provider, paid from the site's finder credits (it stops when they run out). Same as POST /api/finder/person_role_search/createQuery.",
  scope: 'write',
  input: createQueryBodySchema,
  output: CreateQueryResponseSchema,
  creates: true,
  errors: ['NOT_FOUND', 'RATE_LIMITED', 'WORKFLOW_EXECUTION_ERROR'],
  run: (ctx, body) => createRoleQuery(ctx.siteId, body),
});

export const searchRegionVenuesTool = defineTool({
  name: 'searchRegionVenues',
  effect: 'append',
  external: true,
  path: 'searchRegionVenues',
  title: 'Find venues in a region',
  description:
    'Searches the venue provider for places of a kind (`query`, e.g. "coworking") in a region (e.g. "Madrid, Spain"): names, addresses, websites, phones. Costs 1 finder credit, charged only when the provider answers. 503 PROVIDER_NOT_CONFIGURED when no venue provider is configured.',
  scope: 'write',
  input: venueSearchInput,
  output: VenueSearchResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_NOT_CONFIGURED', 'PROVIDER_ERROR', 'RATE_LIMITED'],
  run: (ctx, input) => searchVenues(ctx.siteId, input),
});
