import { createGoal, listGoals } from '@/lib/analytics/goals';
import { createGoalSchema, GoalListSchema, GoalSchema } from '@/lib/analytics/goals-schema';
import { policies } from '@/lib/http/auth/policies';
import { analyticsRoute } from '@/lib/http/site-routes';

// GET /sites/{site_id}/goals — the site's goals
export const GET = analyticsRoute({
  summary: 'List goals',
  description: 'The goals of the site, oldest first: what counts as reaching each (an event name, a conversion name or a page path pattern).',
  response: GoalListSchema,
  handler: ({ siteId }) => listGoals(siteId),
});

// POST /sites/{site_id}/goals — add a goal
export const POST = analyticsRoute({
  summary: 'Create a goal',
  description:
    'A goal of the site: `event` (events named `match`), `conversion` (conversion events named `match`; their ' +
    '`properties.revenue {amount, currency}` is its revenue) or `page` (page views whose path matches `match`, `*` for any ' +
    'characters). It appears in the `goals` breakdown and filters every analytics read as `filter=goal:<name>`. A name ' +
    'used on the site already (whatever the case), or a 101st goal, is 409 `CONFLICT`.',
  auth: policies.siteKeyWrite,
  body: createGoalSchema,
  response: GoalSchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => createGoal(siteId, body),
});
