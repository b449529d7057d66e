import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { currentDate } from '@/lib/core/clock';
import { found } from '@/lib/core/errors';
import { getDb, type Db } from '@/lib/db/client';
import { rows, tableRows } from '@/lib/db/raw';
import { leadImports, leads } from '@/lib/db/schema';
import { recordEvent, wantsEvents } from '@/lib/webhooks/service';
import type { ImportRowError, LeadImport, PreparedRow } from './import-schema';
import { leadResource } from './schema';

type ImportRow = typeof leadImports.$inferSelect;

/** An import's columns but its pending rows (the whole file's, read back only by the job that writes them). */
const { pendingRows: _pendingRows, ...IMPORT_COLUMNS } = getTableColumns(leadImports);

export const toImport = (r: Omit<ImportRow, 'pendingRows'>): LeadImport => ({
  import_id: r.id,
  site_id: r.siteId,
  file_name: r.fileName,
  status: r.status,
  total_rows: r.totalRows,
  processed_rows: r.processedRows,
  created: r.created,
  updated: r.updated,
  skipped: r.skipped,
  errors: r.errors,
  failure: r.failure,
  created_at: r.createdAt.toISOString(),
  completed_at: r.completedAt?.toISOString() ?? null,
});

/** The columns of a batch's JSON records, as jsonb_to_recordset reads them. */
const RECORD = sql.raw(
  'r(email text, new_name text, name text, phone text, company text, position text, notes text, origin text, status text, lead_score integer, custom jsonb)',
);

const recordsOf = (batch: PreparedRow[]) =>
  JSON.stringify(
    batch.map((r) => ({
      email: r.email,
      new_name: r.newName,
      name: r.name,
      phone: r.phone,
      company: r.company,
      position: r.position,
      notes: r.notes,
      origin: r.origin,
      status: r.status,
      lead_score: r.lead_score,
      custom: r.custom,
    })),
  );

/**
 * Writes one batch of prepared rows with `tx`: a lead per new email (origin `import` unless the
 * file gives one), and for an email the site already has, the fields the file gives (an empty
 * cell changes nothing; custom properties are merged). Two statements whatever the batch size.
 * lead.created / lead.updated events are recorded when an endpoint of the site wants them.
 */
async function writeLeadBatch(tx: Db, siteId: string, batch: PreparedRow[]): Promise<{ created: number; updated: number }> {
  if (batch.length === 0) return { created: 0, updated: 0 };
  // The written rows come back whole only for the events; otherwise their emails are enough.
  const events = await wantsEvents(tx, siteId, ['lead.created', 'lead.updated']);
  const inserted = await rows<Record<string, unknown>>(
    sql`insert into leads (site_id, email, name, phone, company, position, notes, origin, status, lead_score, custom_properties)
      select ${siteId}, email, new_name, phone, company, position, notes, coalesce(origin, 'import'), coalesce(status, 'new'), lead_score, coalesce(custom, '{}'::jsonb)
      from jsonb_to_recordset(${recordsOf(batch)}::jsonb) as ${RECORD}
      on conflict (site_id, email) do nothing
      returning ${events ? sql`*` : sql`email`}`,
    tx,
  );
  const created = new Set(inserted.map((r) => r.email as string));
  const existing = batch.filter((r) => !created.has(r.email));
  const updated =
    existing.length === 0
      ? []
      : await rows<Record<string, unknown>>(
          sql`update leads l set
              name = coalesce(r.name, l.name), phone = coalesce(r.phone, l.phone), company = coalesce(r.company, l.company),
              position = coalesce(r.position, l.position), notes = coalesce(r.notes, l.notes), origin = coalesce(r.origin, l.origin),
              status = coalesce(r.status, l.status), lead_score = coalesce(r.lead_score, l.lead_score),
              custom_properties = l.custom_properties || coalesce(r.custom, '{}'::jsonb), updated_at = ${currentDate()}
            from jsonb_to_recordset(${recordsOf(existing)}::jsonb) as ${RECORD}
            where l.site_id = ${siteId} and l.email = r.email
            returning ${events ? sql`l.*` : sql`l.email`}`,
          tx,
        );
  if (events) {
    for (const lead of tableRows(leads, inserted)) await recordEvent(tx, siteId, 'lead.created', { lead: leadResource.toApi(lead) });
    for (const lead of tableRows(leads, updated)) await recordEvent(tx, siteId, 'lead.updated', { lead: leadResource.toApi(lead) });
  }
  return { created: inserted.length, updated: updated.length };
}

async function insertImport(
  tx: Db,
  siteId: string,
  o: { fileName: string | null; totalRows: number; errors: ImportRowError[]; pending: PreparedRow[] | null; status: 'queued' | 'running' },
): Promise<Omit<ImportRow, 'pendingRows'>> {
  const [row] = await tx
    .insert(leadImports)
    .values({
      siteId,
      fileName: o.fileName,
      totalRows: o.totalRows,
      processedRows: o.errors.length,
      errors: o.errors,
      skipped: o.errors.length,
      pendingRows: o.pending,
      status: o.status,
    })
    .returning(IMPORT_COLUMNS);
  return row;
}

export async function findImport(siteId: string, id: string, db?: Db): Promise<ImportRow | undefined> {
  const [row] = await (db ?? (await getDb()))
    .select()
    .from(leadImports)
    .where(and(eq(leadImports.siteId, siteId), eq(leadImports.id, id)))
    .limit(1);
  return row;
}

/** Advances an import by a written batch (with the batch's transaction: progress and writes commit together). */
async function advanceImport(tx: Db, siteId: string, id: string, d: { rows: number; created: number; updated: number; done: boolean }) {
  await tx
    .update(leadImports)
    .set({
      processedRows: sql`${leadImports.processedRows} + ${d.rows}`,
      created: sql`${leadImports.created} + ${d.created}`,
      updated: sql`${leadImports.updated} + ${d.updated}`,
      status: d.done ? 'completed' : 'running',
      ...(d.done ? { pendingRows: null, completedAt: currentDate() } : {}),
      updatedAt: currentDate(),
    })
    .where(and(eq(leadImports.siteId, siteId), eq(leadImports.id, id)));
}

type NewImport = { fileName: string | null; totalRows: number; errors: ImportRowError[] };

/** Writes one batch of an import's rows and advances its progress, in one transaction (`last`: the import is then complete). */
export async function writeImportBatch(siteId: string, importId: string, batch: PreparedRow[], last: boolean): Promise<void> {
  const db = await getDb();
  await db.transaction(async (tx) => {
    const counts = batch.length ? await writeLeadBatch(tx, siteId, batch) : { created: 0, updated: 0 };
    await advanceImport(tx, siteId, importId, { rows: batch.length, ...counts, done: last });
  });
}

/** Records an import and writes all its rows, in one transaction; answers the completed import. */
export async function importAtOnce(siteId: string, o: NewImport, rows: PreparedRow[]): Promise<ImportRow> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const created = await insertImport(tx, siteId, { ...o, pending: null, status: 'running' });
    const counts = await writeLeadBatch(tx, siteId, rows);
    await advanceImport(tx, siteId, created.id, { rows: rows.length, ...counts, done: true });
    return found(await findImport(siteId, created.id, tx), 'Import');
  });
}

/** Records an import whose rows a job writes later; `also` runs in the same transaction (it queues that job). */
export async function insertQueuedImport(
  siteId: string,
  o: NewImport,
  pending: PreparedRow[],
  also: (tx: Db, created: Omit<ImportRow, 'pendingRows'>) => Promise<unknown>,
): Promise<Omit<ImportRow, 'pendingRows'>> {
  const db = await getDb();
  return db.transaction(async (tx) => {
    const created = await insertImport(tx, siteId, { ...o, pending, status: 'queued' });
    await also(tx, created);
    return created;
  });
}

export async function failImport(siteId: string, id: string, failure: string): Promise<void> {
  const db = await getDb();
  await db
    .update(leadImports)
    .set({ status: 'failed', failure, pendingRows: null, completedAt: currentDate(), updatedAt: currentDate() })
    .where(and(eq(leadImports.siteId, siteId), eq(leadImports.id, id), sql`${leadImports.status} <> 'completed'`));
}
