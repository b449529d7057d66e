'use server';

import { createGoal, deleteGoal } from '@/lib/analytics/goals';
import { createGoalSchema } from '@/lib/analytics/goals-schema';
import { actionGroup } from './define-action';
import { text } from './forms';

const goals = actionGroup({ permission: 'settings.manage', revalidate: ['/goals', ''] });

/** Adds a goal, as POST /sites/{id}/goals does; a name in use is an error on the field. */
export const createGoalAction = goals.action({
  schema: createGoalSchema,
  input: (form) => ({ name: text(form, 'name'), type: text(form, 'type'), match: text(form, 'match') }),
  run: async ({ site, input }) => (await createGoal(site.id, input)).name,
  errorField: (error) => (error.code === 'CONFLICT' ? 'name' : 'form'),
});

/** Deletes a goal, as DELETE /sites/{id}/goals/{goal_id} does. */
export const deleteGoalAction = goals.idAction('goal_id', ({ site }, id) => deleteGoal(site.id, id));
