import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { instanceLogs } from '@/lib/db/schema';
import { firstRow, pageOf } from '@/lib/db/site-scoped';
import type { InstanceLog, ListLogsQuery } from './instance-schema';
import { screenshotUrl } from './instances-repo';

/** The only code that touches instance logs; every call is scoped by the site id. */
export type LogRow = typeof instanceLogs.$inferSelect;

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
  return firstRow(instanceLogs, and(eq(instanceLogs.siteId, siteId), eq(instanceLogs.instanceId, instanceId), eq(instanceLogs.id, logId)));
}

export async function listLogs(
  siteId: string,
  instanceId: string,
  q: Omit<ListLogsQuery, 'site_id'>,
): Promise<{ items: InstanceLog[]; total: number }> {
  const filters: (SQL | undefined)[] = [eq(instanceLogs.siteId, siteId), eq(instanceLogs.instanceId, instanceId)];
  if (q.log_type) filters.push(eq(instanceLogs.logType, q.log_type));
  if (q.level) filters.push(eq(instanceLogs.level, q.level));
  const where = and(...filters);
  const { rows, total } = await pageOf(instanceLogs, where, [desc(instanceLogs.createdAt), desc(instanceLogs.id)], q);
  return { items: rows.map(toLog), total };
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
