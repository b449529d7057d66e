import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { getDb } from '@/lib/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { leads, leadVisitors } from '@/lib/db/schema';
import { ApiError, found } from '@/lib/http/errors';
import { assertSegmentOfSite } from '@/lib/segments/repo';
import type { CreateLeadInput, Lead, LeadSortField, LeadStatus, ListLeadsInput, UpdateLeadInput } from './schema';

export type LeadRow = typeof leads.$inferSelect;

export const toLead = (row: LeadRow): Lead => ({
  id: row.id,
  site_id: row.siteId,
  name: row.name,
  email: row.email,
  status: row.status,
  phone: row.phone,
  position: row.position,
  company: row.company,
  notes: row.notes,
  origin: row.origin,
  segment_id: row.segmentId,
  campaign_id: row.campaignId,
  assignee_id: row.assigneeId,
  lead_score: row.leadScore,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

export async function findLead(siteId: string, leadId: string): Promise<LeadRow | undefined> {
  const db = await getDb();
  const [row] = await db.select().from(leads).where(and(eq(leads.siteId, siteId), eq(leads.id, leadId))).limit(1);
  return row;
}

export async function findLeadByEmail(siteId: string, email: string): Promise<LeadRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(leads)
    .where(and(eq(leads.siteId, siteId), eq(leads.email, email.toLowerCase())))
    .limit(1);
  return row;
}

/**
 * Creates the site's lead for this email, or updates the given fields of the existing one
 * (one lead per email per site). Used when a visitor identifies themselves.
 */
export async function upsertLeadByEmail(
  siteId: string,
  input: { email: string; name: string; origin?: string | null },
): Promise<LeadRow> {
  const db = await getDb();
  const [row] = await db
    .insert(leads)
    .values({ siteId, email: input.email.toLowerCase(), name: input.name, origin: input.origin ?? null })
    .onConflictDoUpdate({
      target: [leads.siteId, leads.email],
      set: { name: input.name, updatedAt: new Date() },
    })
    .returning();
  return row;
}

type LeadColumns = Omit<Partial<typeof leads.$inferInsert>, 'id' | 'siteId' | 'createdAt'>;

/** API field names → columns, for the fields present in `input` (null kept: it clears). */
function columnsOf(input: Partial<Omit<UpdateLeadInput, 'site_id' | 'lead_id'>>): LeadColumns {
  const map: Record<string, keyof LeadColumns> = {
    name: 'name',
    email: 'email',
    status: 'status',
    phone: 'phone',
    position: 'position',
    company: 'company',
    notes: 'notes',
    origin: 'origin',
    segment_id: 'segmentId',
    campaign_id: 'campaignId',
    assignee_id: 'assigneeId',
    lead_score: 'leadScore',
  };
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(input)) {
    if (field in map && value !== undefined) out[map[field]] = value;
  }
  return out as LeadColumns;
}

function writeError(error: unknown, email: string | undefined): never {
  if (isUniqueViolation(error)) {
    throw new ApiError('CONFLICT', 'A lead with this email already exists for this site', { email });
  }
  if (isForeignKeyViolation(error)) throw new ApiError('NOT_FOUND', 'Segment not found');
  throw error;
}

export async function createLead(siteId: string, input: CreateLeadInput): Promise<Lead> {
  if (input.segment_id) await assertSegmentOfSite(siteId, input.segment_id);
  const db = await getDb();
  const { site_id: _site, ...fields } = input;
  try {
    const [row] = await db
      .insert(leads)
      .values({ ...columnsOf(fields), siteId, name: input.name, email: input.email })
      .returning();
    return toLead(row);
  } catch (error) {
    writeError(error, input.email);
  }
}

export async function updateLead(siteId: string, input: UpdateLeadInput): Promise<Lead> {
  if (input.segment_id) await assertSegmentOfSite(siteId, input.segment_id);
  const db = await getDb();
  const { site_id: _site, lead_id: leadId, ...fields } = input;
  try {
    const [row] = await db
      .update(leads)
      .set({ ...columnsOf(fields), updatedAt: new Date() })
      .where(and(eq(leads.siteId, siteId), eq(leads.id, leadId)))
      .returning();
    return toLead(found(row, 'Lead'));
  } catch (error) {
    if (error instanceof ApiError) throw error;
    writeError(error, input.email);
  }
}

export async function setLeadStatus(siteId: string, leadId: string, status: LeadStatus): Promise<Lead> {
  const db = await getDb();
  const [row] = await db
    .update(leads)
    .set({ status, updatedAt: new Date() })
    .where(and(eq(leads.siteId, siteId), eq(leads.id, leadId)))
    .returning();
  return toLead(found(row, 'Lead'));
}

const SORT_COLUMNS = {
  created_at: leads.createdAt,
  updated_at: leads.updatedAt,
  name: leads.name,
  email: leads.email,
  company: leads.company,
  status: leads.status,
  lead_score: leads.leadScore,
} satisfies Record<LeadSortField, unknown>;

/** `%`, `_` and `\` in a search term match themselves, not as LIKE wildcards. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * One page of the site's leads. `search` is a case-insensitive substring match on name, email
 * and company, bound as a parameter and served by the trigram indexes; the sort key comes from
 * a whitelist, with the id as tie-breaker so pages are stable.
 */
export async function listLeads(siteId: string, q: ListLeadsInput): Promise<{ items: Lead[]; total: number }> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(leads.siteId, siteId)];
  if (q.status) filters.push(eq(leads.status, q.status));
  if (q.search) {
    const pattern = likePattern(q.search);
    filters.push(or(ilike(leads.name, pattern), ilike(leads.email, pattern), ilike(leads.company, pattern)));
  }
  const where = and(...filters);
  const direction = q.sort_order === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(leads)
      .where(where)
      .orderBy(direction(SORT_COLUMNS[q.sort_by]), direction(leads.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ total: count() }).from(leads).where(where),
  ]);
  return { items: rows.map(toLead), total: Number(total) };
}

/** The lead a visitor of this site is linked to, if any. */
export async function findLeadOfVisitor(siteId: string, visitorId: string): Promise<LeadRow | undefined> {
  const db = await getDb();
  const [row] = await db
    .select({ lead: leads })
    .from(leadVisitors)
    .innerJoin(leads, eq(leads.id, leadVisitors.leadId))
    .where(and(eq(leadVisitors.siteId, siteId), eq(leadVisitors.visitorId, visitorId), eq(leads.siteId, siteId)))
    .limit(1);
  return row?.lead;
}

/** Links a visitor of the site to one of the site's leads, replacing an earlier link. */
export async function linkVisitorToLead(siteId: string, visitorId: string, leadId: string): Promise<void> {
  const db = await getDb();
  await db
    .insert(leadVisitors)
    .values({ siteId, visitorId, leadId })
    .onConflictDoUpdate({ target: [leadVisitors.siteId, leadVisitors.visitorId], set: { leadId, updatedAt: new Date() } });
}
