import { found, ApiError } from '@/lib/core/errors';
import { defineJob } from '@/lib/jobs/define';
import { enqueue } from '@/lib/jobs/queue';
import { decodeCsv, prepareImport } from './import-prepare';
import { failImport, findImport, importAtOnce, insertQueuedImport, toImport, writeImportBatch } from './import-repo';
import { IMPORT_BATCH_ROWS, IMPORT_INLINE_ROWS, IMPORT_MAX_BYTES, type LeadImport, type PreparedRow } from './import-schema';
import { listProperties } from './properties-repo';

/**
 * CSV import of leads (POST /api/leads/import). The file is checked whole first (import-prepare):
 * a bad file writes nothing. A file of up to IMPORT_INLINE_ROWS rows is then written in one
 * transaction and answered with its result; a larger one is queued for the `lead-import` job,
 * which writes it in batches of IMPORT_BATCH_ROWS, each in the transaction that advances the
 * import's progress (GET /api/leads/import/{id}): a worker that dies mid-import resumes after the
 * last committed batch, and no row is written twice.
 */
export const leadImportJob = defineJob<{ siteId: string; importId: string }>({
  name: 'lead-import',
  options: () => ({ expireInSeconds: 120, retryLimit: 3, retryDelaySeconds: 5 }),
  async run(data, ctx) {
    if (ctx.signal.aborted) return;
    await continueImport(data.siteId, data.importId, ctx.signal);
  },
  async exhausted(data, reason) {
    await failImport(data.siteId, data.importId, `The import stopped: ${reason}`);
  },
});

/** Writes the batches an import still has, from the first row not yet written. */
export async function continueImport(siteId: string, importId: string, signal?: AbortSignal): Promise<void> {
  const row = await findImport(siteId, importId);
  if (!row || row.status === 'completed' || row.status === 'failed') return;
  const pending = (row.pendingRows ?? []) as PreparedRow[];
  // Rows written so far: processed minus the rows skipped up front.
  let done = Math.max(0, row.processedRows - row.skipped);
  if (done >= pending.length) {
    await writeImportBatch(siteId, importId, [], true);
    return;
  }
  while (done < pending.length) {
    if (signal?.aborted) return;
    const batch = pending.slice(done, done + IMPORT_BATCH_ROWS);
    const last = done + batch.length >= pending.length;
    await writeImportBatch(siteId, importId, batch, last);
    done += batch.length;
  }
}

export async function importLeads(siteId: string, input: { file: File; mapping?: string }): Promise<{ import: LeadImport; queued: boolean }> {
  if (input.file.size > IMPORT_MAX_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `The file exceeds ${IMPORT_MAX_BYTES / 1024 / 1024} MB`, { max_bytes: IMPORT_MAX_BYTES });
  }
  const text = decodeCsv(new Uint8Array(await input.file.arrayBuffer()));
  const prepared = prepareImport(text, input.mapping, await listProperties(siteId));
  const fileName = input.file.name ? input.file.name.slice(-200) : null;
  const created = { fileName, totalRows: prepared.totalRows, errors: prepared.errors };
  if (prepared.rows.length <= IMPORT_INLINE_ROWS) return { import: toImport(await importAtOnce(siteId, created, prepared.rows)), queued: false };
  const row = await insertQueuedImport(siteId, created, prepared.rows, (tx, queued) =>
    enqueue(leadImportJob, { siteId, importId: queued.id }, { tx }),
  );
  return { import: toImport(row), queued: true };
}

export async function getImport(siteId: string, importId: string): Promise<LeadImport> {
  return toImport(found(await findImport(siteId, importId), 'Import'));
}
