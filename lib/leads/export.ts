import { CSV_BOM, csvRecord, type CsvCell as CsvValue } from '@/lib/core/csv';
import { assertSegmentOfSite } from '@/lib/segments/service';
import { listProperties } from './properties-repo';
import { type ExportCursor, exportPage, type LeadFilters, propertyFilter, toLead } from './repo';
import type { Lead } from './schema';

/**
 * The site's leads as CSV (GET /api/leads/export): the filters of the leads list, newest first,
 * one column per lead field and then one per custom property (by key, in the site's order),
 * written page by page as the client reads (a million leads never sit in memory at once). The
 * filters are checked before the first byte, so a bad one is a 400, not a broken file.
 */
export const EXPORT_PAGE_ROWS = 1_000;

const LEAD_COLUMNS = [
  'id',
  'name',
  'email',
  'status',
  'phone',
  'company',
  'position',
  'notes',
  'origin',
  'segment_id',
  'campaign_id',
  'assignee_id',
  'lead_score',
  'created_at',
  'updated_at',
] as const satisfies readonly (keyof Lead)[];

export async function exportLeadsCsv(siteId: string, filters: LeadFilters): Promise<ReadableStream<Uint8Array>> {
  // Another site's segment is a 404, as the leads list answers it.
  if (filters.segment_id) await assertSegmentOfSite(siteId, filters.segment_id);
  const typed = { ...filters, properties: await propertyFilter(siteId, filters.properties) };
  const keys = (await listProperties(siteId)).map((p) => p.key);
  const encoder = new TextEncoder();
  let cursor: ExportCursor | undefined;
  let started = false;
  let finished = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(CSV_BOM + csvRecord([...LEAD_COLUMNS, ...keys])));
          return;
        }
        if (finished) return;
        const page = await exportPage(siteId, typed, cursor, EXPORT_PAGE_ROWS);
        let chunk = '';
        for (const row of page.leads) {
          const lead = toLead(row);
          const values: CsvValue[] = LEAD_COLUMNS.map((c) => lead[c]);
          for (const k of keys) values.push(lead.custom_properties[k]);
          chunk += csvRecord(values);
        }
        if (chunk) controller.enqueue(encoder.encode(chunk));
        cursor = page.next;
        if (!cursor) {
          finished = true;
          controller.close();
        }
      },
    },
    { highWaterMark: 1 },
  );
}

/** The export's file name: `leads-<YYYY-MM-DD>.csv`. */
export const exportFileName = (now: Date) => `leads-${now.toISOString().slice(0, 10)}.csv`;
