import { and, eq, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { segments } from '@/lib/db/schema';
import { siteScoped } from '@/lib/db/site-scoped';
import { found } from '@/lib/core/errors';
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
