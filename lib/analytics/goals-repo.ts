import { sql } from 'drizzle-orm';
import { rows } from '@/lib/db/raw';
import type { Goal } from './goals-schema';

const COLUMNS = sql`id, site_id, name, type, match, created_at::float8 as created_at, updated_at::float8 as updated_at`;

export const listGoalRows = (siteId: string) =>
  rows<Goal>(sql`select ${COLUMNS} from analytics_goals where site_id = ${siteId} order by created_at, id`);

export async function goalRow(siteId: string, id: string): Promise<Goal | undefined> {
  const [row] = await rows<Goal>(sql`select ${COLUMNS} from analytics_goals where site_id = ${siteId} and id = ${id}`);
  return row;
}

export async function goalByName(siteId: string, name: string): Promise<Goal | undefined> {
  const [row] = await rows<Goal>(sql`select ${COLUMNS} from analytics_goals where site_id = ${siteId} and lower(name) = lower(${name})`);
  return row;
}

/**
 * Inserts a goal unless the site has `max` already or one of the same name (case left aside):
 * `full` or `taken` then, nothing written. One statement, so two creates at once cannot pass the cap.
 */
export async function insertGoal(
  siteId: string,
  g: { name: string; type: string; match: string },
  at: number,
  max: number,
): Promise<Goal | 'full' | 'taken'> {
  const [row] = await rows<Goal & { outcome: string }>(sql`
    with site as (select id from sites where id = ${siteId} for update),
    state as (
      select (select count(*) from analytics_goals where site_id = ${siteId}) as n,
             exists (select 1 from analytics_goals where site_id = ${siteId} and lower(name) = lower(${g.name})) as taken
      from site
    ),
    ins as (
      insert into analytics_goals (site_id, name, type, match, created_at, updated_at)
      select ${siteId}, ${g.name}, ${g.type}, ${g.match}, ${at}::bigint, ${at}::bigint from state where n < ${max} and not taken
      on conflict do nothing
      returning ${COLUMNS}
    )
    select 'ok' as outcome, ins.* from ins
    union all
    select case when taken then 'taken' else 'full' end, null, null, null, null, null, null, null from state where not exists (select 1 from ins)`);
  if (!row || row.outcome === 'taken') return 'taken';
  if (row.outcome === 'full') return 'full';
  const { outcome: _, ...goal } = row;
  return goal;
}

/** Updates a goal; undefined when it is not the site's, `taken` when another goal has the name. */
export async function updateGoalRow(
  siteId: string,
  id: string,
  g: { name?: string; type?: string; match?: string },
  at: number,
): Promise<Goal | 'taken' | undefined> {
  if (g.name !== undefined) {
    const [clash] = await rows<{ id: string }>(
      sql`select id from analytics_goals where site_id = ${siteId} and lower(name) = lower(${g.name}) and id <> ${id}`,
    );
    if (clash) return 'taken';
  }
  const [row] = await rows<Goal>(sql`
    update analytics_goals set
      name = coalesce(${g.name ?? null}::text, name), type = coalesce(${g.type ?? null}::text, type),
      match = coalesce(${g.match ?? null}::text, match), updated_at = ${at}::bigint
    where site_id = ${siteId} and id = ${id}
    returning ${COLUMNS}`);
  return row;
}

export async function deleteGoalRow(siteId: string, id: string): Promise<boolean> {
  const deleted = await rows<{ id: string }>(sql`delete from analytics_goals where site_id = ${siteId} and id = ${id} returning id`);
  return deleted.length > 0;
}
