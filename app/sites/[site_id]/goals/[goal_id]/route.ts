import { deleteGoal, updateGoal } from '@/lib/analytics/goals';
import { GoalDeletedSchema, goalParamsSchema, GoalSchema, updateGoalSchema } from '@/lib/analytics/goals-schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

const tags = ['Analytics'];

// PATCH /sites/{site_id}/goals/{goal_id} — rename a goal or change what it matches
export const PATCH = defineRoute({
  summary: 'Update a goal',
  description: 'Changes the fields given. Another goal of the site with the name is 409 `CONFLICT`; a goal of another site is 404.',
  tags,
  auth: policies.siteKeyWrite,
  params: goalParamsSchema,
  body: updateGoalSchema,
  response: GoalSchema,
  errors: ['NOT_FOUND', 'CONFLICT'],
  handler: ({ siteId, params, body }) => updateGoal(siteId, params.goal_id, body),
});

// DELETE /sites/{site_id}/goals/{goal_id} — remove a goal
export const DELETE = defineRoute({
  summary: 'Delete a goal',
  tags,
  auth: policies.siteKeyWrite,
  params: goalParamsSchema,
  response: GoalDeletedSchema,
  errors: ['NOT_FOUND'],
  handler: ({ siteId, params }) => deleteGoal(siteId, params.goal_id),
});
