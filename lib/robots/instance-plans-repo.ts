import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { instancePlans } from '@/lib/db/schema';
import { pageOf } from '@/lib/db/site-scoped';
import type { InstancePlan, ListPlansQuery, PlanStep } from './instance-schema';

/** The only code that touches instance plans; every call is scoped by the site id. */
export type PlanRow = typeof instancePlans.$inferSelect;

export function toPlan(row: PlanRow): InstancePlan {
  return {
    id: row.id,
    instance_id: row.instanceId,
    site_id: row.siteId,
    title: row.title,
    description: row.description,
    plan_type: row.planType as InstancePlan['plan_type'],
    status: row.status as InstancePlan['status'],
    priority: row.priority,
    instructions: row.instructions,
    steps: row.steps as PlanStep[],
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function insertPlan(
  siteId: string,
  instanceId: string,
  values: Omit<typeof instancePlans.$inferInsert, 'siteId' | 'instanceId'>,
): Promise<PlanRow> {
  const db = await getDb();
  const [row] = await db
    .insert(instancePlans)
    .values({ ...values, siteId, instanceId })
    .returning();
  return row;
}

export async function updatePlanRow(siteId: string, planId: string, set: Partial<typeof instancePlans.$inferInsert>): Promise<PlanRow> {
  const db = await getDb();
  const [row] = await db
    .update(instancePlans)
    .set({ ...set, updatedAt: currentDate() })
    .where(and(eq(instancePlans.siteId, siteId), eq(instancePlans.id, planId)))
    .returning();
  return row;
}

/** The robot plan being worked on: the newest task plan of the instance that is not finished. */
export async function openPlan(siteId: string, instanceId: string): Promise<PlanRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(instancePlans)
    .where(
      and(
        eq(instancePlans.siteId, siteId),
        eq(instancePlans.instanceId, instanceId),
        eq(instancePlans.planType, 'task'),
        inArray(instancePlans.status, ['pending', 'in_progress']),
      ),
    )
    .orderBy(desc(instancePlans.createdAt), desc(instancePlans.id))
    .limit(1);
  return row;
}

export async function listPlans(
  siteId: string,
  instanceId: string,
  q: Omit<ListPlansQuery, 'site_id'>,
): Promise<{ items: InstancePlan[]; total: number }> {
  const filters: (SQL | undefined)[] = [eq(instancePlans.siteId, siteId), eq(instancePlans.instanceId, instanceId)];
  if (q.status) filters.push(eq(instancePlans.status, q.status));
  if (q.plan_type) filters.push(eq(instancePlans.planType, q.plan_type));
  const where = and(...filters);
  const { rows, total } = await pageOf(
    instancePlans,
    where,
    [desc(instancePlans.priority), desc(instancePlans.createdAt), desc(instancePlans.id)],
    q,
  );
  return { items: rows.map(toPlan), total };
}
