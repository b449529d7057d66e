import { z } from 'zod';
import { createGoal, listGoals } from '@/lib/analytics/goals';
import { createGoalSchema, GoalListSchema, GoalSchema } from '@/lib/analytics/goals-schema';
import { siteIdSchema } from '@/lib/core/schemas';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

const tags = ['Analytics'];
const params = z.object({ site_id: siteIdSchema });

// GET /sites/{site_id}/goals — the site's goals
export const GET = defineRoute({
  summary: 'List goals',
  description: 'The goals of the site, oldest first: what counts as reaching each (an event name, a conversion name or a page path pattern).',
  tags,
  auth: policies.siteKey,
  params,
  response: GoalListSchema,
  handler: ({ siteId }) => listGoals(siteId),
});

// POST /sites/{site_id}/goals — add a goal
export const POST = defineRoute({
  summary: 'Create a goal',
  description:
    'A goal of the site: `event` (events named `match`), `conversion` (conversion events named `match`; their ' +
    '`properties.revenue {amount, currency}` is its revenue) or `page` (page views whose path matches `match`, `*` for any ' +
    'characters). It appears in the `goals` breakdown and filters every analytics read as `filter=goal:<name>`. A name ' +
    'used on the site already (whatever the case), or a 101st goal, is 409 `CONFLICT`.',
  tags,
  auth: policies.siteKeyWrite,
  params,
  body: createGoalSchema,
  response: GoalSchema,
  status: 201,
  errors: ['CONFLICT'],
  handler: ({ siteId, body }) => createGoal(siteId, body),
});
