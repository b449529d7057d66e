import { createQueryBodySchema, CreateQueryResponseSchema } from '@/lib/finder/schema';
import { createRoleQuery } from '@/lib/finder/service';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/finder/person_role_search/createQuery — save a role query and start mining leads for it
export const POST = defineRoute({
  summary: 'Create or update a role query and start ICP mining',
  description:
    "Saves the site's role query — one per normalised `query` within the site (keys sorted, text trimmed and lower-cased, " +
    'empty values dropped): the same search again updates its `name` and `total_targets` — links `segment_id` (the site’s ' +
    'own, else 404), and starts an idealClientProfileMining run that creates up to `total_targets` new leads from it. ' +
    'Answers 201 with the role query and the run ids when the query is new, 200 when it existed.',
  tags: ['Finder'],
  auth: policies.keyWrite,
  body: createQueryBodySchema,
  response: CreateQueryResponseSchema,
  status: 201,
  openapi: { alsoSucceeds: { 200: 'The site already had a role query with this normalised query: it was updated and a run started' } },
  errors: ['NOT_FOUND', 'RATE_LIMITED', 'WORKFLOW_EXECUTION_ERROR'],
  handler: async ({ siteId, body, res }) => {
    const answer = await createRoleQuery(siteId, body);
    if (!answer.created) res.status = 200;
    return answer;
  },
});
