import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { leads, segments } from '@/lib/db/schema';
import { siteScoped } from '@/lib/db/site-scoped';
import { segmentResource, type CreateSegmentInput, type ListSegmentsInput, type Segment, type UpdateSegmentInput } from './schema';

const repo = siteScoped(segments, segmentResource);

/** 404 unless the segment belongs to the site (leads may only point at their own site's segments). */
export async function assertSegmentOfSite(siteId: string, segmentId: string): Promise<void> {
  const db = await getDb();
  const [row] = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.siteId, siteId), eq(segments.id, segmentId)))
    .limit(1);
  found(row, 'Segment');
}

export const createSegment = (siteId: string, input: CreateSegmentInput): Promise<Segment> => repo.create(siteId, input);

export const updateSegment = (siteId: string, input: UpdateSegmentInput): Promise<Segment> => repo.update(siteId, input.segment_id, input);

export function listSegments(siteId: string, q: ListSegmentsInput): Promise<{ items: Segment[]; total: number }> {
  const filters: (SQL | undefined)[] = [];
  if (q.segment_id) filters.push(eq(segments.id, q.segment_id));
  if (q.is_active !== undefined) filters.push(eq(segments.isActive, q.is_active));
  return repo.list(siteId, filters, q);
}

/** The leads in each of the given segments (0 for one without leads): a segment's real size. */
export async function segmentLeadCounts(siteId: string, segmentIds: string[]): Promise<Map<string, number>> {
  const counts = new Map(segmentIds.map((id) => [id, 0]));
  if (segmentIds.length === 0) return counts;
  const db = await getDb();
  const rows = await db
    .select({ id: leads.segmentId, n: sql<number>`count(*)::int` })
    .from(leads)
    .where(and(eq(leads.siteId, siteId), inArray(leads.segmentId, segmentIds)))
    .groupBy(leads.segmentId);
  for (const row of rows) if (row.id) counts.set(row.id, Number(row.n));
  return counts;
}

/** Deletes a segment of the site (404 otherwise): its leads stay, without a segment; its role-query links and visitor memberships go with it. */
export async function deleteSegment(siteId: string, segmentId: string): Promise<{ name: string }> {
  const db = await getDb();
  const [row] = await db
    .delete(segments)
    .where(and(eq(segments.siteId, siteId), eq(segments.id, segmentId)))
    .returning({ name: segments.name });
  return found(row, 'Segment');
}

export async function findSegment(siteId: string, segmentId: string): Promise<Segment | undefined> {
  const row = await repo.find(siteId, segmentId);
  return row ? repo.toApi(row) : undefined;
}

/**
 * Writes computed segments in one transaction: each is matched by `attributes.cluster_key` (so a
 * rerun updates instead of duplicating), gets its size, and its leads are moved into it.
 */
export async function saveClusterSegments(
  siteId: string,
  plans: { key: string; name: string; description: string; attributes: Record<string, string>; leadIds: string[] }[],
): Promise<{ key: string; segmentId: string; name: string; size: number; created: boolean }[]> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const out = [];
    for (const plan of plans) {
      const attributes = { ...plan.attributes, cluster_key: plan.key };
      const [existing] = await tx
        .select({ id: segments.id })
        .from(segments)
        .where(and(eq(segments.siteId, siteId), sql`${segments.attributes}->>'cluster_key' = ${plan.key}`))
        .limit(1);
      const values = { name: plan.name, description: plan.description, size: plan.leadIds.length, attributes, updatedAt: currentDate() };
      const [row] = existing
        ? await tx
            .update(segments)
            .set(values)
            .where(and(eq(segments.siteId, siteId), eq(segments.id, existing.id)))
            .returning()
        : await tx
            .insert(segments)
            .values({ ...values, siteId })
            .returning();
      if (plan.leadIds.length) {
        await tx
          .update(leads)
          .set({ segmentId: row.id, updatedAt: currentDate() })
          .where(and(eq(leads.siteId, siteId), inArray(leads.id, plan.leadIds)));
      }
      out.push({ key: plan.key, segmentId: row.id, name: row.name, size: plan.leadIds.length, created: !existing });
    }
    return out;
  });
}
