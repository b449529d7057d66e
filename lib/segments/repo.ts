import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { pickColumns } from '@/lib/db/columns';
import { getDb } from '@/lib/db/client';
import { leads, segments } from '@/lib/db/schema';
import { found } from '@/lib/core/errors';
import type { CreateSegmentInput, ListSegmentsInput, Segment, UpdateSegmentInput } from './schema';

type SegmentRow = typeof segments.$inferSelect;
type SegmentColumns = Omit<Partial<typeof segments.$inferInsert>, 'id' | 'siteId' | 'createdAt'>;

const toSegment = (row: SegmentRow): Segment => ({
  segment_id: row.id,
  site_id: row.siteId,
  name: row.name,
  description: row.description,
  audience: row.audience,
  size: row.size,
  estimated_value: row.estimatedValue === null ? null : Number(row.estimatedValue),
  language: row.language,
  is_active: row.isActive,
  attributes: row.attributes,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

function columnsOf(input: Partial<Omit<UpdateSegmentInput, 'site_id' | 'segment_id'>>): SegmentColumns {
  return pickColumns<SegmentColumns>(input, {
    name: 'name',
    description: 'description',
    audience: 'audience',
    size: 'size',
    estimated_value: 'estimatedValue',
    language: 'language',
    is_active: 'isActive',
    attributes: 'attributes',
  });
}

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

export async function createSegment(siteId: string, input: CreateSegmentInput): Promise<Segment> {
  const db = await getDb();
  const { site_id: _site, ...fields } = input;
  const [row] = await db.insert(segments).values({ ...columnsOf(fields), siteId, name: input.name }).returning();
  return toSegment(row);
}

export async function updateSegment(siteId: string, input: UpdateSegmentInput): Promise<Segment> {
  const db = await getDb();
  const { site_id: _site, segment_id: segmentId, ...fields } = input;
  const [row] = await db
    .update(segments)
    .set({ ...columnsOf(fields), updatedAt: new Date() })
    .where(and(eq(segments.siteId, siteId), eq(segments.id, segmentId)))
    .returning();
  return toSegment(found(row, 'Segment'));
}

export async function listSegments(siteId: string, q: ListSegmentsInput): Promise<{ items: Segment[]; total: number }> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(segments.siteId, siteId)];
  if (q.segment_id) filters.push(eq(segments.id, q.segment_id));
  if (q.is_active !== undefined) filters.push(eq(segments.isActive, q.is_active));
  const where = and(...filters);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(segments).where(where).orderBy(desc(segments.createdAt), desc(segments.id)).limit(q.limit).offset(q.offset),
    db.select({ total: count() }).from(segments).where(where),
  ]);
  return { items: rows.map(toSegment), total: Number(total) };
}

export async function findSegment(siteId: string, segmentId: string): Promise<Segment | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.siteId, siteId), eq(segments.id, segmentId)))
    .limit(1);
  return row ? toSegment(row) : undefined;
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
      const values = { name: plan.name, description: plan.description, size: plan.leadIds.length, attributes, updatedAt: new Date() };
      const [row] = existing
        ? await tx.update(segments).set(values).where(and(eq(segments.siteId, siteId), eq(segments.id, existing.id))).returning()
        : await tx.insert(segments).values({ ...values, siteId }).returning();
      if (plan.leadIds.length) {
        await tx
          .update(leads)
          .set({ segmentId: row.id, updatedAt: new Date() })
          .where(and(eq(leads.siteId, siteId), inArray(leads.id, plan.leadIds)));
      }
      out.push({ key: plan.key, segmentId: row.id, name: row.name, size: plan.leadIds.length, created: !existing });
    }
    return out;
  });
}
