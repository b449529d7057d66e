import { crc32, deflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { parseInput } from '@/lib/core/validate';
import { BREAKDOWN_DIMENSIONS, rangeQuerySchema, type BreakdownItem } from './schema';
import { breakdown, overview } from './service';

/**
 * The export of a whole period: one zip holding the day-by-day figures (`overview.csv`) and each
 * breakdown (`pages.csv`, `referrers.csv` … up to its top 100 values), as a spreadsheet opens them.
 * The zip is written here (deflate from zlib, no dependency); the CSVs follow RFC 4180 (CRLF, fields
 * with a comma, quote or line break quoted, quotes doubled) and are safe to open in a spreadsheet:
 * a text value starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `'`,
 * so a page path or a referrer can never run as a formula.
 */

export const exportQuerySchema = rangeQuerySchema;
export const EXPORT_ROWS = 100;

/** One CSV field. */
function cell(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A CSV document: a header line and one line per row, CRLF-terminated. */
export function csv(header: string[], rows: (string | number | null)[][]): string {
  return [header, ...rows].map((r) => r.map(cell).join(',') + '\r\n').join('');
}

/** Date and time of a zip entry, MS-DOS style (local fields taken in UTC). */
function dosTime(at: Date): { time: number; date: number } {
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** A zip archive of the files (deflated; UTF-8 names). */
export function zip(files: { name: string; data: Buffer }[], at = new Date()): Buffer {
  const { time, date } = dosTime(at);
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const file of files) {
    const name = Buffer.from(file.name, 'utf8');
    const packed = deflateRawSync(file.data);
    const sum = crc32(file.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(8, 8); // deflate
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(sum, 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(file.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by: 2.0
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(sum, 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(file.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const ITEM_COLUMNS: (keyof BreakdownItem)[] = [
  'value',
  'sessions',
  'page_views',
  'bounce_rate',
  'avg_duration_ms',
  'conversions',
  'visitors',
  'clicks',
  'avg_engaged_ms',
  'avg_scroll_depth',
];

/** The zip of a period's figures: its file name and bytes. */
export async function exportPeriod(siteId: string, query: z.input<typeof exportQuerySchema> = {}): Promise<{ filename: string; data: Buffer }> {
  const range = parseInput(exportQuerySchema, query, 'query');
  const ov = await overview(siteId, range);
  const days = ov.series;
  const files = [
    {
      name: 'overview.csv',
      data: Buffer.from(
        csv(
          ['date', 'visitors', 'sessions', 'page_views', 'bounce_rate', 'avg_duration_ms', 'conversions', 'new_leads'],
          [
            ...days.map((d) => [d.date, d.visitors, d.sessions, d.page_views, d.bounce_rate, d.avg_duration_ms, d.conversions, d.new_leads]),
            [
              'total',
              ov.totals.visitors,
              ov.totals.sessions,
              ov.totals.page_views,
              ov.totals.bounce_rate,
              ov.totals.avg_duration_ms,
              ov.totals.conversions,
              ov.totals.new_leads,
            ],
          ],
        ),
      ),
    },
  ];
  // The same period for every breakdown (the overview settled the defaults).
  const period = { from: ov.range.from, to: ov.range.to, timezone: range.timezone };
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    const b = await breakdown(siteId, dimension, { ...period, limit: EXPORT_ROWS });
    files.push({
      name: `${dimension}.csv`,
      data: Buffer.from(
        csv(
          ITEM_COLUMNS,
          b.items.map((item) => ITEM_COLUMNS.map((c) => item[c])),
        ),
      ),
    });
  }
  return { filename: `analytics-${ov.range.from}-to-${ov.range.to}.zip`, data: zip(files) };
}
