import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { changedRows } from '@/lib/db/raw';
import { visitorSegments, visitors } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import type { Visitor } from './schema';

export async function findVisitor(siteId: string, visitorId: string) {
  return findOfSite(visitors, siteId, visitorId);
}

/** Links a visitor of the site to a lead (replacing an earlier link). False when the site has no such visitor. */
export async function setVisitorLead(siteId: string, visitorId: string, leadId: string): Promise<boolean> {
  const db = await getDb();
  const updated = await db
    .update(visitors)
    .set({ leadId })
    .where(and(eq(visitors.siteId, siteId), eq(visitors.id, visitorId)))
    .returning({ id: visitors.id });
  return updated.length > 0;
}

export async function listVisitors(siteId: string, limit: number, offset: number): Promise<{ items: Visitor[]; total: number }> {
  const db = await getDb();
  const sessionCount: SQL<number> = sql<number>`(select count(*)::int from visitor_sessions s where s.visitor_id = "visitors"."id")`;
  const [rows, [{ n }]] = await Promise.all([
    db
      .select({ v: visitors, sessionCount })
      .from(visitors)
      .where(eq(visitors.siteId, siteId))
      .orderBy(desc(visitors.lastSeenAt), desc(visitors.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(visitors).where(eq(visitors.siteId, siteId)),
  ]);
  return {
    total: n,
    items: rows.map(({ v, sessionCount }) => ({
      visitor_id: v.id,
      site_id: v.siteId,
      fingerprint: v.fingerprint,
      lead_id: v.leadId,
      is_bot: v.isBot,
      first_seen_at: v.firstSeenAt,
      last_seen_at: v.lastSeenAt,
      session_count: Number(sessionCount),
    })),
  };
}

/** Adds a visitor to a segment; adding again is harmless and keeps the first `added_at`. */
export async function addVisitorToSegment(siteId: string, visitorId: string, segmentId: string, now: number) {
  const db = await getDb();
  const [inserted] = await db.insert(visitorSegments).values({ siteId, visitorId, segmentId, addedAt: now }).onConflictDoNothing().returning();
  if (inserted) return { addedAt: inserted.addedAt, alreadyMember: false };
  const [existing] = await db
    .select()
    .from(visitorSegments)
    .where(and(eq(visitorSegments.visitorId, visitorId), eq(visitorSegments.segmentId, segmentId)))
    .limit(1);
  return { addedAt: existing.addedAt, alreadyMember: true };
}

/**
 * Retention (lib/worker/retention.ts): deletes up to `limit` visitors of the site no lead is linked to, last
 * seen before `cutoff` (epoch ms), that have no session left; oldest first.
 */
export const pruneIdleVisitors = (siteId: string, cutoff: number, limit: number): Promise<number> =>
  changedRows(sql`delete from visitors where id in (
    select v.id from visitors v where v.site_id = ${siteId}::uuid and v.lead_id is null and v.last_seen_at < ${cutoff}
      and not exists (select 1 from visitor_sessions s where s.visitor_id = v.id) order by v.last_seen_at limit ${limit})`);
