import { z } from 'zod';
import { siteIdSchema } from '@/lib/core/schemas';
import { FinderCategorySchema, peopleDataProvider } from '@/lib/providers/people-data';
import { defineTool } from './define-tool';

export const getFinderCategoryIdsTool = defineTool({
  name: 'getFinderCategoryIds',
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
