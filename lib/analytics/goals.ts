import { now } from '@/lib/core/clock';
import { ApiError, notFound } from '@/lib/core/errors';
import { parseInput } from '@/lib/core/validate';
import { deleteGoalRow, goalByName, goalRow, insertGoal, listGoalRows, updateGoalRow } from './goals-repo';
import { createGoalSchema, MAX_GOALS, updateGoalSchema, type CreateGoal, type Goal, type UpdateGoal } from './goals-schema';

/**
 * A site's goals: what counts as reaching each (an event name, a conversion name or a page path
 * pattern). The goals breakdown and the `goal` filter of the analytics reads use them.
 */
export const listGoals = async (siteId: string): Promise<{ goals: Goal[] }> => ({ goals: await listGoalRows(siteId) });

export const findGoalByName = (siteId: string, name: string) => goalByName(siteId, name);

const nameTaken = (name: string) =>
  new ApiError('CONFLICT', `A goal named "${name}" exists on this site`, { issues: [{ path: 'body.name', message: 'already used' }] });

export async function createGoal(siteId: string, input: CreateGoal): Promise<Goal> {
  const g = parseInput(createGoalSchema, input, 'body');
  const created = await insertGoal(siteId, g, now(), MAX_GOALS);
  if (created === 'taken') throw nameTaken(g.name);
  if (created === 'full') throw new ApiError('CONFLICT', `A site has at most ${MAX_GOALS} goals; delete one first`);
  return created;
}

export async function updateGoal(siteId: string, id: string, input: UpdateGoal): Promise<Goal> {
  const g = parseInput(updateGoalSchema, input, 'body');
  const current = await goalRow(siteId, id);
  if (!current) throw notFound('Goal');
  const type = g.type ?? current.type;
  const match = g.match ?? current.match;
  if (type === 'page' && !match.startsWith('/'))
    throw new ApiError('INVALID_REQUEST', 'Invalid body: body.match: A page goal matches a path starting with /', {
      issues: [{ path: 'body.match', message: 'A page goal matches a path starting with /' }],
    });
  const updated = await updateGoalRow(siteId, id, g, now());
  if (updated === 'taken') throw nameTaken(g.name!);
  if (!updated) throw notFound('Goal');
  return updated;
}

export async function deleteGoal(siteId: string, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await deleteGoalRow(siteId, id))) throw notFound('Goal');
  return { id, deleted: true };
}
