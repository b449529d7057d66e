import { and, desc, eq, inArray, isNotNull, not, notInArray, sql, type SQL } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { database, getDb, type Db } from '@/lib/db/client';
import { remoteInstances, sites } from '@/lib/db/schema';
import { sessionLockHeld } from '@/lib/db/session-locks';
import { pageOf } from '@/lib/db/site-scoped';
import { envVarNames } from './instance-env-vars';
import type { Instance, InstanceStatus, ListInstancesQuery } from './instance-schema';
import { BROWSER_STATUSES, BUSY_STATUSES } from './instance-states';

/** The session advisory lock a process holding robot browsers keeps while it lives (./holder.ts). */
export const HOLDER_LOCK = 'robot-holder';

/** Takes the holder's lock on a session of its own, kept until the process ends (idempotent). */
export async function holdHolderLock(holderId: string): Promise<void> {
  await (await database()).holdSessionLock(HOLDER_LOCK, holderId);
}

/**
 * The only code that touches instance records (their logs: ./instance-logs-repo.ts, plans:
 * ./instance-plans-repo.ts); every call is scoped by the site id.
 */
export type InstanceRow = typeof remoteInstances.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
export const screenshotUrl = (instanceId: string, logId?: string) => `/api/instances/${instanceId}/screenshot${logId ? `?log_id=${logId}` : ''}`;

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
  const filters: (SQL | undefined)[] = [eq(remoteInstances.siteId, siteId)];
  if (q.status) filters.push(eq(remoteInstances.status, q.status));
  if (q.instance_type) filters.push(eq(remoteInstances.instanceType, q.instance_type));
  const where = and(...filters);
  const { rows, total } = await pageOf(remoteInstances, where, [desc(remoteInstances.createdAt), desc(remoteInstances.id)], q);
  return { items: rows.map(toInstance), total };
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

/**
 * Marks `error` the account's instances holding a browser (`BROWSER_STATUSES`) whose holder no
 * longer holds its lock (./holder.ts): the process that held their browser is gone — its database
 * session ended with it — and so is the browser. Instances without a recorded holder are left as
 * they are. Answers those it marked.
 */
export async function releaseLostBrowsers(ownerId: string): Promise<{ siteId: string; id: string }[]> {
  const on = await getDb();
  return on
    .update(remoteInstances)
    .set({ status: 'error', expiresAt: null, updatedAt: currentDate() })
    .where(
      and(
        inArray(remoteInstances.status, [...BROWSER_STATUSES]),
        isNotNull(remoteInstances.holderId),
        not(sessionLockHeld(HOLDER_LOCK, sql`${remoteInstances.holderId}::text`)),
        inArray(remoteInstances.siteId, on.select({ id: sites.id }).from(sites).where(eq(sites.ownerId, ownerId))),
      ),
    )
    .returning({ siteId: remoteInstances.siteId, id: remoteInstances.id });
}
