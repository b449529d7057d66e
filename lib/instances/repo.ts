import { and, count, desc, eq, inArray, isNotNull, notExists, notInArray, sql, type SQL } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb, type Db } from '@/lib/db/client';
import { instanceLogs, instancePlans, remoteInstances, robotHolders, sites } from '@/lib/db/schema';
import { envVarNames } from './env-vars';
import type { Instance, InstanceLog, InstancePlan, InstanceStatus, ListInstancesQuery, ListLogsQuery, ListPlansQuery, PlanStep } from './schema';
import { BROWSER_STATUSES, BUSY_STATUSES } from './states';

/** The only code that touches instances, their logs and plans; every call is scoped by the site id. */
export type InstanceRow = typeof remoteInstances.$inferSelect;
export type LogRow = typeof instanceLogs.$inferSelect;
export type PlanRow = typeof instancePlans.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const screenshotUrl = (instanceId: string, logId?: string) => `/api/instances/${instanceId}/screenshot${logId ? `?log_id=${logId}` : ''}`;

export function toInstance(row: InstanceRow): Instance {
  return {
    id: row.id,
    site_id: row.siteId,
    user_id: row.userId,
    name: row.name,
    instance_type: row.instanceType,
    status: row.status,
    agent_id: row.agentId,
    configuration: row.configuration,
    environment_variables: envVarNames(row.environmentVariablesSealed),
    activity: row.activity,
    current_url: row.currentUrl,
    timeout_hours: Number(row.timeoutHours),
    started_at: iso(row.startedAt),
    expires_at: iso(row.expiresAt),
    screenshot_url: row.screenshotKey ? screenshotUrl(row.id) : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toLog(row: LogRow): InstanceLog {
  return {
    id: row.id,
    instance_id: row.instanceId,
    site_id: row.siteId,
    log_type: row.logType as InstanceLog['log_type'],
    level: row.level as InstanceLog['level'],
    message: row.message,
    details: row.details,
    screenshot_url: row.screenshotKey ? screenshotUrl(row.instanceId, row.id) : null,
    created_at: row.createdAt.toISOString(),
  };
}

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

const ofSite = (siteId: string, id: string) => and(eq(remoteInstances.siteId, siteId), eq(remoteInstances.id, id));

export async function insertInstance(siteId: string, values: Omit<typeof remoteInstances.$inferInsert, 'siteId'>): Promise<InstanceRow> {
  const db = await getDb();
  const [row] = await db
    .insert(remoteInstances)
    .values({ ...values, siteId })
    .returning();
  return row;
}

export async function findInstance(siteId: string, id: string): Promise<InstanceRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(remoteInstances).where(ofSite(siteId, id)).limit(1);
  return row;
}

export async function listInstances(siteId: string, q: Omit<ListInstancesQuery, 'site_id'>): Promise<{ items: Instance[]; total: number }> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(remoteInstances.siteId, siteId)];
  if (q.status) filters.push(eq(remoteInstances.status, q.status));
  if (q.instance_type) filters.push(eq(remoteInstances.instanceType, q.instance_type));
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(remoteInstances).where(where).orderBy(desc(remoteInstances.createdAt), desc(remoteInstances.id)).limit(q.limit).offset(q.offset),
    db.select({ total: count() }).from(remoteInstances).where(where),
  ]);
  return { items: rows.map(toInstance), total: Number(total) };
}

/** Changes columns of the site's instance; `onlyIn` makes it conditional on the current status. */
export async function updateInstanceRow(
  siteId: string,
  id: string,
  set: Partial<typeof remoteInstances.$inferInsert>,
  onlyIn?: readonly InstanceStatus[],
  on?: Db,
): Promise<InstanceRow | undefined> {
  const db = on ?? (await getDb());
  const where = onlyIn ? and(ofSite(siteId, id), inArray(remoteInstances.status, [...onlyIn])) : ofSite(siteId, id);
  const [row] = await db
    .update(remoteInstances)
    .set({ ...set, updatedAt: currentDate() })
    .where(where)
    .returning();
  return row;
}

/**
 * Instances holding a browser (`BROWSER_STATUSES`): of the account's sites, and of one of them.
 * Not scoped by one site: the account's count is the running-robot limit of lib/robots/slots.ts.
 */
export async function countBrowserHolders(ownerId: string, siteId: string, on: Db): Promise<{ account: number; site: number }> {
  const [row] = await on
    .select({
      account: sql<number>`count(*)::int`,
      site: sql<number>`(count(*) filter (where ${remoteInstances.siteId} = ${siteId}))::int`,
    })
    .from(remoteInstances)
    .innerJoin(sites, eq(sites.id, remoteInstances.siteId))
    .where(and(eq(sites.ownerId, ownerId), inArray(remoteInstances.status, [...BROWSER_STATUSES])));
  return { account: Number(row.account), site: Number(row.site) };
}

/** Removes the record unless an operation is under way on it; answers whether it did. */
export async function deleteInstanceRow(siteId: string, id: string): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .delete(remoteInstances)
    .where(and(ofSite(siteId, id), notInArray(remoteInstances.status, [...BUSY_STATUSES])))
    .returning({ id: remoteInstances.id });
  return rows.length > 0;
}

/** Records that the process `holderId` is alive now (it holds, or is about to hold, robot browsers). */
export async function recordHolderSeen(holderId: string, on?: Db): Promise<void> {
  const db = on ?? (await getDb());
  await db
    .insert(robotHolders)
    .values({ id: holderId })
    .onConflictDoUpdate({ target: robotHolders.id, set: { seenAt: sql`now()` } });
  // Processes gone for a day are of no use to anyone.
  await db.delete(robotHolders).where(sql`${robotHolders.seenAt} < now() - interval '1 day'`);
}

/**
 * Marks `error` the account's instances holding a browser (`BROWSER_STATUSES`) whose holder has
 * not been seen for `staleSeconds`: the process that held their browser is gone, and so is the
 * browser. Instances without a recorded holder are left as they are. Answers those it marked.
 */
export async function releaseLostBrowsers(ownerId: string, staleSeconds: number, on: Db): Promise<{ siteId: string; id: string }[]> {
  const alive = on
    .select({ one: sql`1` })
    .from(robotHolders)
    .where(and(eq(robotHolders.id, remoteInstances.holderId), sql`${robotHolders.seenAt} > now() - make_interval(secs => ${staleSeconds})`));
  return on
    .update(remoteInstances)
    .set({ status: 'error', expiresAt: null, updatedAt: currentDate() })
    .where(
      and(
        inArray(remoteInstances.status, [...BROWSER_STATUSES]),
        isNotNull(remoteInstances.holderId),
        notExists(alive),
        inArray(remoteInstances.siteId, on.select({ id: sites.id }).from(sites).where(eq(sites.ownerId, ownerId))),
      ),
    )
    .returning({ siteId: remoteInstances.siteId, id: remoteInstances.id });
}

// Logs

export async function insertLog(
  siteId: string,
  instanceId: string,
  values: { logType: string; level?: string; message: string; details?: Record<string, unknown>; screenshotKey?: string | null; id?: string },
): Promise<LogRow> {
  const db = await getDb();
  const [row] = await db
    .insert(instanceLogs)
    .values({ ...values, siteId, instanceId })
    .returning();
  return row;
}

export async function findLog(siteId: string, instanceId: string, logId: string): Promise<LogRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(instanceLogs)
    .where(and(eq(instanceLogs.siteId, siteId), eq(instanceLogs.instanceId, instanceId), eq(instanceLogs.id, logId)))
    .limit(1);
  return row;
}

export async function listLogs(
  siteId: string,
  instanceId: string,
  q: Omit<ListLogsQuery, 'site_id'>,
): Promise<{ items: InstanceLog[]; total: number }> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(instanceLogs.siteId, siteId), eq(instanceLogs.instanceId, instanceId)];
  if (q.log_type) filters.push(eq(instanceLogs.logType, q.log_type));
  if (q.level) filters.push(eq(instanceLogs.level, q.level));
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(instanceLogs).where(where).orderBy(desc(instanceLogs.createdAt), desc(instanceLogs.id)).limit(q.limit).offset(q.offset),
    db.select({ total: count() }).from(instanceLogs).where(where),
  ]);
  return { items: rows.map(toLog), total: Number(total) };
}

/** Storage keys of every screenshot and saved state of an instance (removed with it). */
export async function storedKeysOf(siteId: string, instanceId: string): Promise<string[]> {
  const db = await getDb();
  const rows = await db
    .select({ key: instanceLogs.screenshotKey })
    .from(instanceLogs)
    .where(and(eq(instanceLogs.siteId, siteId), eq(instanceLogs.instanceId, instanceId), sql`${instanceLogs.screenshotKey} is not null`));
  return rows.map((r) => r.key!);
}

// Plans

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
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(instancePlans.siteId, siteId), eq(instancePlans.instanceId, instanceId)];
  if (q.status) filters.push(eq(instancePlans.status, q.status));
  if (q.plan_type) filters.push(eq(instancePlans.planType, q.plan_type));
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(instancePlans)
      .where(where)
      .orderBy(desc(instancePlans.priority), desc(instancePlans.createdAt), desc(instancePlans.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ total: count() }).from(instancePlans).where(where),
  ]);
  return { items: rows.map(toPlan), total: Number(total) };
}

/** Log entries of the instance written at or after `after`, oldest first (a stream's next batch; it skips the ids it sent). */
export async function logsAfter(siteId: string, instanceId: string, after: Date, max = 100): Promise<LogRow[]> {
  const db = await getDb();
  return db
    .select()
    .from(instanceLogs)
    .where(
      and(
        eq(instanceLogs.siteId, siteId),
        eq(instanceLogs.instanceId, instanceId),
        sql`${instanceLogs.createdAt} >= ${after.toISOString()}::timestamptz`,
      ),
    )
    .orderBy(instanceLogs.createdAt, instanceLogs.id)
    .limit(max);
}
