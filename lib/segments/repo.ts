import { and, eq } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { segments } from '@/lib/db/schema';

export type SegmentRow = typeof segments.$inferSelect;

/** A segment of the site by id (used when a visitor joins a segment). */
export async function findSegment(siteId: string, segmentId: string): Promise<SegmentRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(segments).where(and(eq(segments.siteId, siteId), eq(segments.id, segmentId))).limit(1);
  return row;
}
