'use server';

import { z } from 'zod';
import { createGoal, deleteGoal } from '@/lib/analytics/goals';
import { createGoalSchema } from '@/lib/analytics/goals-schema';
import { uuidSchema } from '@/lib/core/schemas';
import { defineAction } from './define-action';
import { text } from './forms';

/** Adds a goal, as POST /sites/{id}/goals does; a name in use is an error on the field. */
export const createGoalAction = defineAction({
  permission: 'settings.manage',
  schema: createGoalSchema,
  input: (form) => ({ name: text(form, 'name'), type: text(form, 'type'), match: text(form, 'match') }),
  run: async ({ site, input }) => (await createGoal(site.id, input)).name,
  errorField: (error) => (error.code === 'CONFLICT' ? 'name' : 'form'),
  revalidate: () => ['/goals', ''],
});

/** Deletes a goal, as DELETE /sites/{id}/goals/{goal_id} does. */
export const deleteGoalAction = defineAction({
  permission: 'settings.manage',
  schema: z.object({ goal_id: uuidSchema }),
  run: async ({ site, input }) => {
    await deleteGoal(site.id, input.goal_id);
  },
  revalidate: () => ['/goals', ''],
});
