import { and, asc, count, eq, getTableColumns, inArray, isNull, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { ApiError } from '@/lib/core/errors';
import type { CappedTotal } from '@/lib/core/schemas';
import { getDb, type Db } from '@/lib/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { rows } from '@/lib/db/raw';
import { leads } from '@/lib/db/schema';
import { siteScoped, firstRow } from '@/lib/db/site-scoped';
import { assertMembersOfSite } from '@/lib/members/service';
import { assertSegmentOfSite } from '@/lib/segments/service';
import { recordEvent } from '@/lib/webhooks/service';
import { listProperties } from './properties-repo';
import { checkProperties, checkValue } from './property-values';
import {
  leadResource,
  type CreateLeadInput,
  type Lead,
  type LeadSortField,
  type LeadStatus,
  type ListLeadsInput,
  type UpdateLeadInput,
} from './schema';

/** A lead's row as the app reads it: the stored search text is for searches only, never answered. */
export type LeadRow = Omit<typeof leads.$inferSelect, 'searchText'>;

const duplicateEmail = (input: { email?: unknown }) =>
  new ApiError('CONFLICT', 'A lead with this email already exists for this site', { email: input.email });

function writeError(error: unknown, input: { email?: unknown }): never {
  if (isUniqueViolation(error)) throw duplicateEmail(input);
  if (isForeignKeyViolation(error)) throw new ApiError('NOT_FOUND', 'Segment not found');
  throw error;
}

/** lead.created / lead.updated webhook events, written in the transaction of the change. */
const leadEvent = (tx: Db, change: 'created' | 'updated', siteId: string, lead: Lead) =>
  recordEvent(tx, siteId, change === 'created' ? 'lead.created' : 'lead.updated', { lead }).then(() => undefined);

const repo = siteScoped(leads, leadResource, {
  writeError,
  onWrite: leadEvent,
  // A create repeating an email (agents retry) writes nothing: on the embedded database, which no autovacuum
  // cleans, each refused insert would otherwise leave a dead row version in the table and its indexes.
  unique: { columns: [leads.siteId, leads.email], refuse: duplicateEmail },
});

export const toLead = (row: LeadRow): Lead => leadResource.toApi(row);

export const findLead = (siteId: string, leadId: string): Promise<LeadRow | undefined> => repo.find(siteId, leadId);

export async function findLeadByEmail(siteId: string, email: string): Promise<LeadRow | undefined> {
  return firstRow(leads, and(eq(leads.siteId, siteId), eq(leads.email, email.toLowerCase())));
}

/**
 * Creates the site's lead for this email, or updates the given fields of the existing one
 * (one lead per email per site). Used when a visitor identifies themselves.
 */
export async function upsertLeadByEmail(siteId: string, input: { email: string; name: string; origin?: string | null }): Promise<LeadRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(leads)
      .values({ siteId, email: input.email.toLowerCase(), name: input.name, origin: input.origin ?? null })
      .onConflictDoUpdate({
        target: [leads.siteId, leads.email],
        set: { name: input.name, updatedAt: currentDate() },
      })
      .returning({ ...getTableColumns(leads), inserted: sql<boolean>`(xmax = 0)` });
    const { inserted, ...lead } = row;
    await leadEvent(tx, inserted ? 'created' : 'updated', siteId, toLead(lead));
    return lead;
  });
}

/**
 * `strict`: custom property values as JSON types (the API); otherwise a number may come as its
 * text (console forms).
 */
export async function createLead(siteId: string, input: CreateLeadInput, o: { strict?: boolean } = {}): Promise<Lead> {
  if (input.segment_id) await assertSegmentOfSite(siteId, input.segment_id);
  if (input.assignee_id) await assertMembersOfSite(siteId, [input.assignee_id]);
  const { custom_properties, ...fields } = input;
  if (custom_properties === undefined) return repo.create(siteId, fields);
  const patch = checkProperties(await listProperties(siteId), custom_properties, o.strict ?? true);
  return repo.create(siteId, { ...fields, custom_properties: patch.set });
}

/** Only the custom properties given change: a value sets its key, null (or an empty string) clears it. */
export async function updateLead(siteId: string, input: UpdateLeadInput, o: { strict?: boolean } = {}): Promise<Lead> {
  if (input.segment_id) await assertSegmentOfSite(siteId, input.segment_id);
  if (input.assignee_id) await assertMembersOfSite(siteId, [input.assignee_id]);
  const { custom_properties, ...fields } = input;
  if (custom_properties === undefined) return repo.update(siteId, input.lead_id, fields);
  const patch = checkProperties(await listProperties(siteId), custom_properties, o.strict ?? true);
  let merged = sql`(${leads.customProperties} || ${JSON.stringify(patch.set)}::jsonb)`;
  for (const key of patch.clear) merged = sql`(${merged} - ${key}::text)`;
  return repo.update(siteId, input.lead_id, { ...fields, custom_properties: merged });
}

export const setLeadStatus = (siteId: string, leadId: string, status: LeadStatus): Promise<Lead> => repo.update(siteId, leadId, { status });

const SORT_KEYS = {
  created_at: 'createdAt',
  updated_at: 'updatedAt',
  name: 'name',
  email: 'email',
  company: 'company',
  status: 'status',
  lead_score: 'leadScore',
} as const satisfies Record<LeadSortField, keyof LeadRow>;

/** Sort keys that are searched fields too (see listLeads). */
const SEARCHED_SORT_KEYS = new Set<LeadSortField>(['name', 'email', 'company']);

/**
 * Sorted by a searched field, how many entries of the sort key's index a search walks (index
 * only: migration 20261124210000_lead_sort_covering.sql) looking for its page before it turns to
 * the trigram index.
 */
export const LEAD_SEARCH_WALK = 3_000;

/**
 * Sorted by a searched field, the most matches a search that did not fill its page within the
 * walk may have: they are fetched through the trigram index and sorted. A search matching more is
 * answered 400 INVALID_REQUEST (sorting all of them would read that many leads for one page).
 */
export const LEAD_SEARCH_SORT_CAP = 5_000;

/**
 * One lead in four, by the last byte of its random id: the predicate of the trigram index over that
 * sample (leads_search_text_sample_trgm_idx, migration 20261125160000_lead_search_sample.sql),
 * written identically so that the planner serves a query bearing it from that index.
 */
const SAMPLE_LAST_BYTE_BELOW = 64;
export const SEARCH_SAMPLE = sql.raw(`get_byte(uuid_send("id"), 15) < ${SAMPLE_LAST_BYTE_BELOW}`);

/** The statements of a leads page: their best plan depends on the term and the page size (see listLeads). */
const PER_CALL = { plan: 'per-call' } as const;

/** `%`, `_` and `\` in a search term match themselves, not as LIKE wildcards. */
const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The columns listLeads filters on, of the table or of a subquery over it. */
interface FilterColumns {
  searchText: SQLWrapper;
  status: SQLWrapper;
  segmentId: SQLWrapper;
  customProperties: SQLWrapper;
}

/** The filters of a list query as the repo applies them: property filters already checked and typed (propertyFilter). */
export type LeadFilters = Pick<ListLeadsInput, 'status' | 'segment_id' | 'search'> & { properties?: Record<string, string | number> };

/**
 * The filters of a list query (status, segment, search, custom properties) on `c`. The search is a
 * case-insensitive substring match: the lower-cased text `like` the lower-cased pattern (what
 * `ilike` compares). Property filters are one containment (`@>`), served by the GIN index.
 */
function listFilters(c: FilterColumns, q: LeadFilters): SQL[] {
  const filters: SQL[] = [];
  if (q.status) filters.push(sql`${c.status} = ${q.status}`);
  if (q.segment_id) filters.push(sql`${c.segmentId} = ${q.segment_id}`);
  if (q.search) filters.push(sql`${c.searchText} like lower(${likePattern(q.search)})`);
  if (q.properties && Object.keys(q.properties).length > 0) filters.push(sql`${c.customProperties} @> ${JSON.stringify(q.properties)}::jsonb`);
  return filters;
}

/**
 * Property filters checked against the site's definitions and typed as stored (a choice as its
 * option, a number as a number): 400 naming `properties.<key>` for an unknown key or a bad value.
 */
export async function propertyFilter(
  siteId: string,
  filters: Record<string, string | number> | undefined,
): Promise<Record<string, string | number> | undefined> {
  if (!filters || Object.keys(filters).length === 0) return undefined;
  const defs = new Map((await listProperties(siteId)).map((d) => [d.key, d]));
  const typed: Record<string, string | number> = {};
  const issues: { path: string; message: string }[] = [];
  for (const [key, raw] of Object.entries(filters)) {
    const def = defs.get(key);
    const checked = def ? checkValue(def, raw, false) : undefined;
    if (!def) issues.push({ path: `properties.${key}`, message: `Unknown custom property "${key}"` });
    else if (!checked!.ok) issues.push({ path: `properties.${key}`, message: `${def.label} ${checked!.message}` });
    else if (checked!.value === null) issues.push({ path: `properties.${key}`, message: 'A filter needs a value' });
    else typed[key] = checked!.value;
  }
  if (issues.length > 0)
    throw new ApiError('INVALID_REQUEST', `Invalid filter: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, { issues });
  return typed;
}

/** A lead's columns as listLeads reads them: every one but the stored search text. */
const { searchText: _searchText, ...leadColumns } = getTableColumns(leads);

/**
 * The select list of a page of leads, written once from the table's columns: each column under
 * its field name, the timestamps as epoch milliseconds (truncated, as the driver's date parsing
 * truncates microseconds). Read with `rows` and mapped by pageRow, a page costs none of the query
 * builder's per-call work (building a select of every column, mapping each value of each row).
 */
const PAGE_COLUMNS = sql.raw(
  Object.entries(leadColumns)
    .map(([field, column]) =>
      field === 'createdAt' || field === 'updatedAt'
        ? `floor(extract(epoch from "${column.name}") * 1000)::float8 as "${field}"`
        : `"${column.name}" as "${field}"`,
    )
    .join(', '),
);

type PageRow = Omit<LeadRow, 'createdAt' | 'updatedAt'> & { createdAt: number; updatedAt: number };

const pageRow = (row: PageRow): LeadRow => ({ ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) });

/** The SQL of a sort key's column, from the whitelist (SORT_KEYS). */
const sortColumn = (field: LeadSortField) => sql.raw(`"${leads[SORT_KEYS[field]].name}"`);

/** The SQL of the requested sort order. */
const sortDirection = (q: ListLeadsInput) => sql.raw(q.sort_order === 'asc' ? 'asc' : 'desc');

const tooBroad = () =>
  new ApiError(
    'INVALID_REQUEST',
    `The search matches more than ${LEAD_SEARCH_SORT_CAP} leads; sorted by name, email or company a search may match at most that many (narrow it, or sort by created_at, updated_at, status or lead_score)`,
  );

/** The columns the walk of a sort key's index filters on, of its subquery (walkSortIndex). */
const WALK_COLUMNS: FilterColumns = {
  searchText: sql`"search_text"`,
  status: sql`"status"`,
  segmentId: sql`"segment_id"`,
  customProperties: sql`"custom_properties"`,
};

/**
 * The page of a search sorted by a searched field from the walk of the sort key's index in order,
 * index only, for at most LEAD_SEARCH_WALK entries: whole when that many leads match the search.
 * The index carries the stored search text, status and segment (migration
 * 20261125161000_lead_walk_search_text.sql); the page's rows are read by id afterwards. One
 * statement read with `rows`, as the other sorts' pages are: the query builder's per-call work
 * would add to every search sorted by a searched field.
 */
async function walkSortIndex(db: Db, siteId: string, q: ListLeadsInput & LeadFilters, rowsWanted: number): Promise<LeadRow[]> {
  const key = sortColumn(q.sort_by);
  const direction = sortDirection(q);
  const page = await rows<PageRow>(
    sql`select ${PAGE_COLUMNS} from (
      select "id" as "hit_id" from (
        select "id", ${key}, "search_text", "status", "segment_id"${q.properties ? sql`, "custom_properties"` : sql``}
        from leads where ${eq(leads.siteId, siteId)} order by ${key} ${direction}, "id" ${direction} limit ${LEAD_SEARCH_WALK}
      ) walk where ${and(...listFilters(WALK_COLUMNS, q))} order by ${key} ${direction}, "id" ${direction} limit ${rowsWanted}
    ) hits join leads on "id" = "hit_id" order by ${key} ${direction}, "id" ${direction}`,
    db,
    PER_CALL,
  );
  return page.map(pageRow);
}

/**
 * Whether more than LEAD_SEARCH_SORT_CAP leads of SEARCH_SAMPLE match `where`: then more than that
 * many leads do. Its trigram index lists a quarter of the full index's candidates, and the count
 * stops at the cap, so a search tens of thousands of leads match is refused for a fraction of what
 * counting it on every lead costs (the full index lists every candidate before any row is read).
 */
async function sampleExceedsCap(db: Db, where: SQL): Promise<boolean> {
  const [{ n }] = await rows<{ n: number }>(
    sql`select count(*)::int as n from (select 1 from leads where ${where} and ${SEARCH_SAMPLE} limit ${LEAD_SEARCH_SORT_CAP + 1}) sampled`,
    db,
    PER_CALL,
  );
  return n > LEAD_SEARCH_SORT_CAP;
}

/** A row of sortMatches: how many matched (up to one past the cap), and a lead of the page or nulls. */
type CountedRow = { matched: number } & (PageRow | Record<keyof PageRow, null>);

/**
 * The page of at most LEAD_SEARCH_SORT_CAP matches of `where` sorted, else 400. The matches are
 * fetched on their id and sort key only and counted before they are sorted: a search matching
 * more is refused without sorting them, and the page's rows are read by id afterwards. The one row
 * of the count comes even when the page is empty (refused, or past the end).
 */
async function sortMatches(db: Db, where: SQL, q: ListLeadsInput): Promise<LeadRow[]> {
  const key = sortColumn(q.sort_by);
  const direction = sortDirection(q);
  const found = await rows<CountedRow>(
    sql`with matches as materialized (select "id", ${key} from leads where ${where} limit ${LEAD_SEARCH_SORT_CAP + 1}),
      counted as (select count(*)::int as "matched" from matches)
    select ${PAGE_COLUMNS}, "matched" from counted
    left join lateral (
      select "id" as "page_id" from matches where "matched" <= ${LEAD_SEARCH_SORT_CAP}
      order by ${key} ${direction}, "id" ${direction} limit ${q.limit + 1} offset ${q.offset}
    ) page on true
    left join leads on "id" = "page_id"
    order by ${key} ${direction}, "id" ${direction}`,
    db,
    PER_CALL,
  );
  if (found[0].matched > LEAD_SEARCH_SORT_CAP) throw tooBroad();
  return found.flatMap(({ matched: _, ...row }) => (row.id === null ? [] : [pageRow(row as PageRow)]));
}

/**
 * A page of a search sorted by a searched field (name, email, company): from the walk of the sort
 * key's index when it fills the page, else from the sorted matches (at most LEAD_SEARCH_SORT_CAP,
 * else 400). The matches are first counted within SEARCH_SAMPLE, up to one past the cap: a refusal
 * proven on the sample reads a quarter of the candidates, and a narrow search's count there is a
 * probe of the sample's trigram index. Both counts are exact, so no search matching at most the cap
 * is refused.
 */
async function searchSortedBySearchedField(db: Db, siteId: string, where: SQL, q: ListLeadsInput, rowsWanted: number): Promise<LeadRow[]> {
  const walked = await walkSortIndex(db, siteId, q, rowsWanted);
  if (walked.length === rowsWanted) return walked.slice(q.offset);
  if (await sampleExceedsCap(db, where)) throw tooBroad();
  return sortMatches(db, where, q);
}

/**
 * One page of the site's leads, and how many match: counted up to one past the page (a count of
 * every match of a site with a million leads would cost far more than the page). The page asks
 * for one row more than `limit`: when it comes, more leads follow (`capped`, `total` =
 * `offset + limit + 1`); when it does not, `total` is exact. Only a page past the end needs a
 * count of its own, and that one stops at `offset`.
 *
 * `search` is a case-insensitive substring match on name, email and company, bound as a
 * parameter; the sort key comes from a whitelist, with the id as tie-breaker so pages are stable.
 * The planner serves a page either from the trigram index (few matches: fetch them, sort, cut)
 * or by walking the sort key's index until the page is full (many matches: a page needs few rows),
 * which only the term and the page size tell: the page is planned with its values on every call
 * (PER_CALL), never with a generic plan.
 * Sorted by a searched field, the walk of its index may meet the matches late (a company every
 * lead of a few names has): searchSortedBySearchedField bounds it.
 */
export async function listLeads(siteId: string, input: ListLeadsInput): Promise<{ items: Lead[]; count: CappedTotal }> {
  const db = await getDb();
  const q = { ...input, properties: await propertyFilter(siteId, input.properties) };
  const where = and(eq(leads.siteId, siteId), ...listFilters(leads, q)) as SQL;
  const direction = sortDirection(q);
  const page =
    q.search && SEARCHED_SORT_KEYS.has(q.sort_by)
      ? await searchSortedBySearchedField(db, siteId, where, q, q.offset + q.limit + 1)
      : (
          await rows<PageRow>(
            sql`select ${PAGE_COLUMNS} from leads where ${where} order by ${sortColumn(q.sort_by)} ${direction}, "id" ${direction} limit ${q.limit + 1} offset ${q.offset}`,
            db,
            PER_CALL,
          )
        ).map(pageRow);
  const items = page.slice(0, q.limit).map(toLead);
  if (page.length > q.limit) return { items, count: { total: q.offset + q.limit + 1, capped: true } };
  if (page.length > 0 || q.offset === 0) return { items, count: { total: q.offset + page.length, capped: false } };
  // Past the end: how many there are, up to the offset (as many as `offset` means the page was just past the last).
  const [{ n }] = await db.select({ n: count() }).from(
    db
      .select({ one: sql`1` })
      .from(leads)
      .where(where)
      .limit(q.offset)
      .as('upto'),
  );
  return { items, count: { total: Number(n), capped: false } };
}

/** Upper bound of the leads one workflow step reads (a batch pass over a site's open leads). */
export const LEAD_BATCH_MAX = 10_000;

/** The site's leads for a batch pass (workflows, sequence enrollment): by status, ids and/or segment, oldest first, capped. */
export async function leadsForBatch(
  siteId: string,
  filter: { statuses?: LeadStatus[]; ids?: string[]; segmentId?: string; unassignedOnly?: boolean },
): Promise<LeadRow[]> {
  const db = await getDb();
  const filters: (SQL | undefined)[] = [eq(leads.siteId, siteId)];
  if (filter.statuses?.length) filters.push(inArray(leads.status, filter.statuses));
  if (filter.ids) filters.push(filter.ids.length ? inArray(leads.id, filter.ids) : sql`false`);
  if (filter.segmentId) filters.push(eq(leads.segmentId, filter.segmentId));
  if (filter.unassignedOnly) filters.push(isNull(leads.assigneeId));
  return db
    .select()
    .from(leads)
    .where(and(...filters))
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(LEAD_BATCH_MAX);
}

/** Sets each lead to `lost` and appends its reason to the notes, in one transaction; answers how many changed. */
export async function markLeadsLost(siteId: string, marks: { leadId: string; note: string }[]): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const mark of marks) {
      const rows = await tx
        .update(leads)
        .set({
          status: 'lost',
          notes: sql`case when coalesce(${leads.notes}, '') = '' then ${mark.note} else ${leads.notes} || E'\n' || ${mark.note} end`,
          updatedAt: currentDate(),
        })
        .where(and(eq(leads.siteId, siteId), eq(leads.id, mark.leadId), sql`${leads.status} <> 'lost'`))
        .returning();
      for (const row of rows) await leadEvent(tx, 'updated', siteId, toLead(row));
      changed += rows.length;
    }
    return changed;
  });
}

/** Sets the assignee of each lead still unassigned, in one transaction; answers how many changed. */
export async function assignLeadsTo(siteId: string, assignments: { leadId: string; assigneeId: string }[]): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    let changed = 0;
    for (const a of assignments) {
      const rows = await tx
        .update(leads)
        .set({ assigneeId: a.assigneeId, updatedAt: currentDate() })
        .where(and(eq(leads.siteId, siteId), eq(leads.id, a.leadId), isNull(leads.assigneeId)))
        .returning();
      for (const row of rows) await leadEvent(tx, 'updated', siteId, toLead(row));
      changed += rows.length;
    }
    return changed;
  });
}

/** A position in the export's order (newest first): the last lead of the page before. */
export interface ExportCursor {
  /** The exact creation time as the database wrote it (microseconds: a page's dates are truncated to milliseconds). */
  at: string;
  id: string;
}

/**
 * One page of the site's leads matching `filters` for the CSV export, newest first, after
 * `cursor` (keyset: each page is read from the (site, created_at, id) index where the last one
 * ended, however deep the export goes).
 */
export async function exportPage(
  siteId: string,
  filters: LeadFilters,
  cursor: ExportCursor | undefined,
  limit: number,
): Promise<{ leads: LeadRow[]; next: ExportCursor | undefined }> {
  const db = await getDb();
  const after = cursor ? sql`and ("created_at", "id") < (${cursor.at}::timestamptz, ${cursor.id}::uuid)` : sql``;
  const page = await rows<PageRow & { cursorAt: string }>(
    sql`select ${PAGE_COLUMNS}, "created_at"::text as "cursorAt" from leads where ${and(eq(leads.siteId, siteId), ...listFilters(leads, filters))} ${after}
      order by "created_at" desc, "id" desc limit ${limit}`,
    db,
    PER_CALL,
  );
  const last = page.at(-1);
  return {
    leads: page.map(({ cursorAt: _, ...row }) => pageRow(row)),
    next: last && page.length === limit ? { at: last.cursorAt, id: last.id } : undefined,
  };
}
