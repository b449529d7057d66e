import { crc32, deflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { parseInput } from '@/lib/core/validate';
import { breakdownCsv, overviewCsv } from './csv';
import { BREAKDOWN_DIMENSIONS, rangeQuerySchema } from './schema';
import { breakdown, overview } from './service';

/**
 * The export of a whole period: one zip holding the day-by-day figures (`overview.csv`) and each
 * breakdown (`pages.csv`, `referrers.csv` … up to its top 100 values), as a spreadsheet opens them.
 * The zip is written here (deflate from zlib, no dependency); the CSVs are the ones `format=csv`
 * answers (./csv.ts: RFC 4180, safe to open in a spreadsheet).
 */

export const exportQuerySchema = rangeQuerySchema;
export const EXPORT_ROWS = 100;

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

/** The zip of a period's figures: its file name and bytes. */
export async function exportPeriod(siteId: string, query: z.input<typeof exportQuerySchema> = {}): Promise<{ filename: string; data: Buffer }> {
  const range = parseInput(exportQuerySchema, query, 'query');
  const ov = await overview(siteId, range);
  const files = [{ name: 'overview.csv', data: Buffer.from(overviewCsv(ov, { total: true }).csv) }];
  // The same period for every breakdown (the overview settled the defaults).
  const period = { from: ov.range.from, to: ov.range.to, timezone: range.timezone };
  for (const dimension of BREAKDOWN_DIMENSIONS) {
    const b = await breakdown(siteId, dimension, { ...period, limit: EXPORT_ROWS });
    files.push({ name: `${dimension}.csv`, data: Buffer.from(breakdownCsv(b).csv) });
  }
  return { filename: `analytics-${ov.range.from}-to-${ov.range.to}.zip`, data: zip(files) };
}
