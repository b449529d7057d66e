import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { getDb } from '@/lib/db/client';
import { finderMinedPeople, finderRoleQueries, finderRoleQuerySegments, leads, type RoleQueryStatus } from '@/lib/db/schema';
import { findOfSite } from '@/lib/db/site-scoped';
import { assertSegmentOfSite } from '@/lib/segments/service';
import { queryHash } from './query-hash';

/** Role queries and the people mining considered. Every function takes the site id first. */
export type RoleQueryRow = typeof finderRoleQueries.$inferSelect;

export interface RoleQuery {
  id: string;
  site_id: string;
  name: string;
  query: Record<string, unknown>;
  query_hash: string;
  total_targets: number;
  leads_created: number;
  pages_fetched: number;
  next_page: number;
  status: RoleQueryStatus;
  segment_ids: string[];
  last_workflow_id: string | null;
  created_at: string;
  updated_at: string;
}

async function segmentsOf(siteId: string, ids: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length === 0) return out;
  const db = await getDb();
  const links = await db
    .select({ roleQueryId: finderRoleQuerySegments.roleQueryId, segmentId: finderRoleQuerySegments.segmentId })
    .from(finderRoleQuerySegments)
    .where(and(eq(finderRoleQuerySegments.siteId, siteId), inArray(finderRoleQuerySegments.roleQueryId, ids)))
    .orderBy(desc(finderRoleQuerySegments.createdAt), desc(finderRoleQuerySegments.segmentId));
  for (const l of links) out.get(l.roleQueryId)?.push(l.segmentId);
  return out;
}

const toRoleQuery = (row: RoleQueryRow, segmentIds: string[]): RoleQuery => ({
  id: row.id,
  site_id: row.siteId,
  name: row.name,
  query: row.query,
  query_hash: row.queryHash,
  total_targets: row.totalTargets,
  leads_created: row.leadsCreated,
  pages_fetched: row.pagesFetched,
  next_page: row.nextPage,
  status: row.status,
  segment_ids: segmentIds,
  last_workflow_id: row.lastWorkflowId,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

/**
 * Creates the site's role query for this search, or updates the one with the same normalised
 * query (its name and target; mining resumes where it stopped), and links the segment — the
 * site's own, else 404 — in one transaction.
 */
export async function upsertRoleQuery(
  siteId: string,
  input: { name: string; query: Record<string, unknown>; total_targets: number; segment_id?: string },
): Promise<{ roleQuery: RoleQuery; created: boolean }> {
  if (input.segment_id) await assertSegmentOfSite(siteId, input.segment_id);
  const db = await getDb();
  const at = currentDate();
  const hash = queryHash(input.query);
  const { row, created } = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: finderRoleQueries.id })
      .from(finderRoleQueries)
      .where(and(eq(finderRoleQueries.siteId, siteId), eq(finderRoleQueries.queryHash, hash)))
      .for('update');
    const [saved] = await tx
      .insert(finderRoleQueries)
      .values({ siteId, name: input.name, query: input.query, queryHash: hash, totalTargets: input.total_targets, createdAt: at, updatedAt: at })
      .onConflictDoUpdate({
        target: [finderRoleQueries.siteId, finderRoleQueries.queryHash],
        set: {
          name: input.name,
          totalTargets: input.total_targets,
          // A higher target reopens a finished query; anything else keeps its state.
          status: sql`case when ${finderRoleQueries.leadsCreated} < ${input.total_targets} and ${finderRoleQueries.status} in ('completed', 'out_of_credits') then 'pending' else ${finderRoleQueries.status} end`,
          updatedAt: at,
        },
      })
      .returning();
    if (input.segment_id) {
      await tx
        .insert(finderRoleQuerySegments)
        .values({ siteId, roleQueryId: saved.id, segmentId: input.segment_id, createdAt: at })
        .onConflictDoUpdate({ target: [finderRoleQuerySegments.roleQueryId, finderRoleQuerySegments.segmentId], set: { createdAt: at } });
    }
    return { row: saved, created: !existing };
  });
  const segments = await segmentsOf(siteId, [row.id]);
  return { roleQuery: toRoleQuery(row, segments.get(row.id)!), created };
}

export async function findRoleQuery(siteId: string, id: string): Promise<RoleQuery | undefined> {
  const row = await findOfSite(finderRoleQueries, siteId, id);
  if (!row) return undefined;
  return toRoleQuery(row, (await segmentsOf(siteId, [row.id])).get(row.id)!);
}

/** The site's role queries, most recently changed first. */
export async function listRoleQueries(siteId: string, o: { unfinishedOnly?: boolean; limit?: number; offset?: number } = {}): Promise<RoleQuery[]> {
  const db = await getDb();
  const list = await db
    .select()
    .from(finderRoleQueries)
    .where(
      and(
        eq(finderRoleQueries.siteId, siteId),
        o.unfinishedOnly
          ? sql`${finderRoleQueries.leadsCreated} < ${finderRoleQueries.totalTargets} and ${finderRoleQueries.status} <> 'exhausted'`
          : undefined,
      ),
    )
    .orderBy(desc(finderRoleQueries.updatedAt), desc(finderRoleQueries.id))
    .limit(o.limit ?? 100)
    .offset(o.offset ?? 0);
  const segments = await segmentsOf(
    siteId,
    list.map((r) => r.id),
  );
  return list.map((r) => toRoleQuery(r, segments.get(r.id)!));
}

/** Mining progress of a role query. */
export async function recordRoleQueryProgress(
  siteId: string,
  id: string,
  p: { status?: RoleQueryStatus; nextPage?: number; pagesFetched?: number; workflowId?: string },
): Promise<void> {
  const db = await getDb();
  await db
    .update(finderRoleQueries)
    .set({
      ...(p.status ? { status: p.status } : {}),
      ...(p.nextPage !== undefined ? { nextPage: p.nextPage } : {}),
      ...(p.pagesFetched ? { pagesFetched: sql`${finderRoleQueries.pagesFetched} + ${p.pagesFetched}` } : {}),
      ...(p.workflowId ? { lastWorkflowId: p.workflowId } : {}),
      updatedAt: currentDate(),
    })
    .where(and(eq(finderRoleQueries.siteId, siteId), eq(finderRoleQueries.id, id)));
}

/** Of these provider person ids, the ones the site has not considered yet (in the given order). */
export async function unseenPeople(siteId: string, personIds: string[]): Promise<string[]> {
  if (personIds.length === 0) return [];
  const db = await getDb();
  const seen = await db
    .select({ personId: finderMinedPeople.personId })
    .from(finderMinedPeople)
    .where(and(eq(finderMinedPeople.siteId, siteId), inArray(finderMinedPeople.personId, personIds)));
  const known = new Set(seen.map((s) => s.personId));
  return [...new Set(personIds)].filter((id) => !known.has(id));
}

export type MinedOutcome = 'lead' | 'duplicate' | 'no_email' | 'target_reached' | 'seen';

/**
 * Turns one found person into a lead of the site, in one transaction: counts it against the
 * role query's target (never past it, whatever runs race), creates the lead unless the site
 * has one with that email, and remembers the person so no run considers them again.
 */
export async function saveMinedPerson(
  siteId: string,
  roleQueryId: string,
  person: {
    person_id: string;
    email: string | null;
    name: string;
    position: string | null;
    company: string | null;
    notes: string | null;
    origin: string;
  },
): Promise<{ outcome: MinedOutcome; lead_id: string | null; leads_created: number; total_targets: number }> {
  const db = await getDb();
  const at = currentDate();
  return db.transaction(async (tx) => {
    const [q] = await tx
      .select({ leadsCreated: finderRoleQueries.leadsCreated, totalTargets: finderRoleQueries.totalTargets })
      .from(finderRoleQueries)
      .where(and(eq(finderRoleQueries.siteId, siteId), eq(finderRoleQueries.id, roleQueryId)))
      .for('update');
    if (!q) return { outcome: 'target_reached' as const, lead_id: null, leads_created: 0, total_targets: 0 };
    const state = { leads_created: q.leadsCreated, total_targets: q.totalTargets };
    if (q.leadsCreated >= q.totalTargets) return { outcome: 'target_reached' as const, lead_id: null, ...state };
    const email = person.email?.trim().toLowerCase();
    // Claim the person first: a run that finds them claimed already leaves them alone.
    const claimed = await tx
      .insert(finderMinedPeople)
      .values({ siteId, personId: person.person_id, roleQueryId, leadId: null, outcome: email ? 'lead' : 'no_email', createdAt: at })
      .onConflictDoNothing()
      .returning({ personId: finderMinedPeople.personId });
    if (claimed.length === 0) return { outcome: 'seen' as const, lead_id: null, ...state };
    if (!email) return { outcome: 'no_email' as const, lead_id: null, ...state };
    const mined = and(eq(finderMinedPeople.siteId, siteId), eq(finderMinedPeople.personId, person.person_id));
    const [link] = await tx
      .select({ segmentId: finderRoleQuerySegments.segmentId })
      .from(finderRoleQuerySegments)
      .where(and(eq(finderRoleQuerySegments.siteId, siteId), eq(finderRoleQuerySegments.roleQueryId, roleQueryId)))
      .orderBy(desc(finderRoleQuerySegments.createdAt))
      .limit(1);
    const [lead] = await tx
      .insert(leads)
      .values({
        siteId,
        email,
        name: person.name,
        position: person.position,
        company: person.company,
        notes: person.notes,
        origin: person.origin,
        segmentId: link?.segmentId ?? null,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing({ target: [leads.siteId, leads.email] })
      .returning({ id: leads.id });
    if (!lead) {
      await tx.update(finderMinedPeople).set({ outcome: 'duplicate' }).where(mined);
      return { outcome: 'duplicate' as const, lead_id: null, ...state };
    }
    await tx.update(finderMinedPeople).set({ leadId: lead.id }).where(mined);
    const [updated] = await tx
      .update(finderRoleQueries)
      .set({ leadsCreated: sql`${finderRoleQueries.leadsCreated} + 1`, updatedAt: at })
      .where(and(eq(finderRoleQueries.siteId, siteId), eq(finderRoleQueries.id, roleQueryId)))
      .returning({ leadsCreated: finderRoleQueries.leadsCreated });
    return { outcome: 'lead' as const, lead_id: lead.id, leads_created: updated.leadsCreated, total_targets: q.totalTargets };
  });
}
