import { z } from 'zod';
import { siteIdSchema, uuidSchema } from '@/lib/core/schemas';

export const GOAL_TYPES = ['event', 'conversion', 'page'] as const;
export const MAX_GOALS = 100;

const name = z
  .string()
  .trim()
  .min(1, 'A goal needs a name')
  .max(100, 'A name has at most 100 characters')
  .refine((v) => v !== '(none)', 'This name is kept for "none" in filters')
  .describe('Name, unique on the site whatever the case; `filter=goal:<name>` names it');
const type = z
  .enum(GOAL_TYPES)
  .describe(
    '`event`: events named `match` (e.g. `sgp.track("signup")`); `conversion`: conversion events named `match`; `page`: page views whose path matches `match`',
  );
const match = z
  .string()
  .trim()
  .min(1, 'A goal needs what it matches')
  .max(500, 'At most 500 characters')
  .describe('The event name, or for `page` the path (`*` matches any characters, e.g. `/thank-you*`)');

const pathRule = (g: { type?: string; match?: string }) => g.type !== 'page' || g.match === undefined || g.match.startsWith('/');
const pathIssue = { message: 'A page goal matches a path starting with /', path: ['match'] };

export const createGoalSchema = z.strictObject({ name, type, match }).refine(pathRule, pathIssue);
export const updateGoalSchema = z
  .strictObject({ name: name.optional(), type: type.optional(), match: match.optional() })
  .refine((g) => Object.keys(g).length > 0, 'Give at least one of name, type, match');

export const goalParamsSchema = z.strictObject({ site_id: siteIdSchema, goal_id: uuidSchema.describe('Goal id') });

export const GoalSchema = z.object({
  id: uuidSchema,
  site_id: uuidSchema,
  name: z.string(),
  type: z.enum(GOAL_TYPES),
  match: z.string(),
  created_at: z.number().int().describe('Epoch ms'),
  updated_at: z.number().int().describe('Epoch ms'),
});
export const GoalListSchema = z.object({ goals: z.array(GoalSchema).describe('Oldest first') });
export const GoalDeletedSchema = z.object({ id: uuidSchema, deleted: z.literal(true) });

export type Goal = z.infer<typeof GoalSchema>;
export type CreateGoal = z.input<typeof createGoalSchema>;
export type UpdateGoal = z.input<typeof updateGoalSchema>;
