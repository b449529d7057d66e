import { unmarkFormula } from '@/lib/core/csv';
import { ApiError } from '@/lib/core/errors';
import { CsvError, parseCsv } from './csv-parse';
import { proposeMapping, type ImportMapping } from './import-mapping';
import { IMPORT_LEAD_FIELDS, IMPORT_MAX_ROWS, type ImportLeadField, type ImportRowError, type PreparedRow } from './import-schema';
import type { LeadProperty } from './property-schema';
import { checkValue } from './property-values';
import { LEAD_STATUSES, leadResource } from './schema';

/**
 * A CSV file checked as a whole before anything is written. Whole-file faults — not UTF-8, an
 * unclosed quote, no header or no rows, more than IMPORT_MAX_ROWS rows, a mapping that names a
 * column the file lacks or a field that does not exist, no email column — are 400 and nothing is
 * written. Each row is then checked on its own: a bad row is reported (`errors`, by its row number
 * in the file) and skipped, the others go on. Two rows of one email: the first is imported, the
 * later ones are reported as duplicates and skipped.
 */
export interface PreparedImport {
  totalRows: number;
  rows: PreparedRow[];
  errors: ImportRowError[];
  mapping: ImportMapping;
}

const invalidFile = (message: string, details?: Record<string, unknown>) => new ApiError('INVALID_REQUEST', message, details);

/** The file's text: UTF-8 (a BOM allowed), else 400. */
export function decodeCsv(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidFile('The file is not UTF-8 text; save it as "CSV UTF-8" and import it again');
  }
}

function parseMapping(raw: string | undefined, header: string[], defs: readonly LeadProperty[]): ImportMapping {
  if (raw === undefined || raw.trim() === '') return proposeMapping(header, defs);
  let mapping: unknown;
  try {
    mapping = JSON.parse(raw);
  } catch {
    throw invalidFile('mapping is not valid JSON');
  }
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping))
    throw invalidFile('mapping must be a JSON object: CSV column → lead field or custom property key');
  const targets = new Set<string>([...IMPORT_LEAD_FIELDS, ...defs.map((d) => d.key)]);
  const used = new Map<string, string>();
  const out: ImportMapping = {};
  for (const [column, target] of Object.entries(mapping)) {
    if (target === null || target === '') {
      out[column] = null;
      continue;
    }
    if (typeof target !== 'string') throw invalidFile(`mapping["${column}"] must be a field name or null`);
    if (!header.includes(column)) throw invalidFile(`mapping names the column "${column}", which is not in the file's header`, { column });
    if (header.indexOf(column) !== header.lastIndexOf(column))
      throw invalidFile(`The column "${column}" appears twice in the header; rename one`, { column });
    if (!targets.has(target)) {
      throw invalidFile(
        `mapping["${column}"]: "${target}" is neither a lead field (${IMPORT_LEAD_FIELDS.join(', ')}) nor a custom property of the site`,
        { column, target },
      );
    }
    if (used.has(target)) throw invalidFile(`The columns "${used.get(target)}" and "${column}" are both mapped to ${target}`, { target });
    used.set(target, column);
    out[column] = target;
  }
  return out;
}

const leadField = (key: 'email' | 'name' | 'phone' | 'company' | 'position' | 'notes' | 'origin') => leadResource.fields[key].in;

/** Checks one cell of a lead field: its value, or a message. */
function leadValue(field: ImportLeadField, text: string): { value: string | number } | { message: string } {
  switch (field) {
    case 'status': {
      const s = text.toLowerCase();
      return (LEAD_STATUSES as readonly string[]).includes(s)
        ? { value: s }
        : { message: `status "${text}" is not one of ${LEAD_STATUSES.join(', ')}` };
    }
    case 'lead_score': {
      const n = Number(text);
      return /^\d+$/.test(text) && n <= 100 ? { value: n } : { message: `lead_score "${text}" is not an integer from 0 to 100` };
    }
    case 'first_name':
    case 'last_name':
      return text.length > 100 ? { message: `${field} is longer than 100 characters` } : { value: text };
    default: {
      const parsed = leadField(field).safeParse(text);
      if (parsed.success) return { value: parsed.data as string };
      return { message: field === 'email' ? `email "${text.slice(0, 80)}" is not a valid address` : `${field}: ${parsed.error.issues[0].message}` };
    }
  }
}

export function prepareImport(text: string, rawMapping: string | undefined, defs: readonly LeadProperty[]): PreparedImport {
  let parsed: ReturnType<typeof parseCsv>;
  try {
    parsed = parseCsv(text, { maxRecords: IMPORT_MAX_ROWS });
  } catch (error) {
    if (error instanceof CsvError) throw invalidFile(`The file is not valid CSV: ${error.message}`);
    throw error;
  }
  if (parsed.truncated) {
    throw invalidFile(
      `The file has more than ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows; an import takes at most ${IMPORT_MAX_ROWS.toLocaleString('en-US')} rows per file (split it)`,
      {
        max_rows: IMPORT_MAX_ROWS,
      },
    );
  }
  const { header, records } = parsed;
  if (header.length === 0 || header.every((h) => h === '')) throw invalidFile('The file is empty: the first row must name the columns');
  if (records.length === 0) throw invalidFile('The file has no rows below its header');
  const mapping = parseMapping(rawMapping, header, defs);
  const columns = header.map((h) => mapping[h] ?? null);
  if (!columns.includes('email')) throw invalidFile('No column is mapped to email: each lead needs one (leads are matched by email)');
  const defOf = new Map(defs.map((d) => [d.key, d]));

  const rows: PreparedRow[] = [];
  const errors: ImportRowError[] = [];
  const firstRowOf = new Map<string, number>();
  for (const record of records) {
    if (record.cells.length > header.length && record.cells.slice(header.length).some((c) => c.trim() !== '')) {
      errors.push({ row: record.row, message: `The row has ${record.cells.length} fields; the header has ${header.length}` });
      continue;
    }
    const given: Partial<Record<ImportLeadField, string | number>> = {};
    const custom: Record<string, string | number> = {};
    const problems: string[] = [];
    columns.forEach((target, i) => {
      if (!target) return;
      const text = unmarkFormula((record.cells[i] ?? '').trim());
      if (text === '') return;
      const def = defOf.get(target);
      if (def) {
        const checked = checkValue(def, text, false);
        if (!checked.ok) problems.push(`${def.label} ${checked.message}`);
        else if (checked.value !== null) custom[def.key] = checked.value;
        return;
      }
      const value = leadValue(target as ImportLeadField, text);
      if ('message' in value) problems.push(value.message);
      else given[target as ImportLeadField] = value.value;
    });
    if (given.email === undefined && !problems.some((p) => p.startsWith('email'))) problems.unshift('email is missing');
    if (problems.length > 0) {
      errors.push({ row: record.row, message: problems.join('; ') });
      continue;
    }
    const email = given.email as string;
    const first = firstRowOf.get(email);
    if (first !== undefined) {
      errors.push({ row: record.row, message: `Same email as row ${first} (${email}): only the first row of an email is imported` });
      continue;
    }
    firstRowOf.set(email, record.row);
    const joined = [given.first_name, given.last_name].filter((p) => p !== undefined).join(' ');
    const name = (given.name as string | undefined) ?? (joined ? joined.slice(0, 200) : null);
    const str = (k: ImportLeadField) => (given[k] as string | undefined) ?? null;
    rows.push({
      email,
      name,
      newName: name ?? email.split('@')[0],
      phone: str('phone'),
      company: str('company'),
      position: str('position'),
      notes: str('notes'),
      origin: str('origin'),
      status: str('status'),
      lead_score: (given.lead_score as number | undefined) ?? null,
      custom,
    });
  }
  return { totalRows: records.length, rows, errors, mapping };
}
