/**
 * A CSV writer after RFC 4180 for files a spreadsheet opens: every text field in double quotes
 * (inner quotes doubled), records ended by CRLF, numbers bare. Safe against formula injection: a
 * text value that starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`,
 * so a spreadsheet shows it as text instead of running it (OWASP "CSV injection"). The lead import
 * removes that mark again (unmarkFormula), so an export imports back as it was.
 */
export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

/** A text value made inert for spreadsheets. */
export const markFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** The value as it was before markFormula (a `'` before one of the formula characters is removed). */
export const unmarkFormula = (text: string): string => (text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text);

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return `"${markFormula(value).replace(/"/g, '""')}"`;
}

export const csvRecord = (values: readonly CsvValue[]): string => `${values.map(csvField).join(',')}\r\n`;

/** The byte-order mark that makes spreadsheets read the file as UTF-8. */
export const CSV_BOM = '\ufeff';
