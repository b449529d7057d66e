/**
 * CSV documents as spreadsheets read them (RFC 4180): fields separated by commas, records by CRLF,
 * a field quoted when it holds a comma, a quote, CR or LF, quotes doubled inside. Safe to open in
 * a spreadsheet: a text field that starts with `=`, `+`, `-`, `@`, a tab or a CR (a formula to
 * Excel, LibreOffice and Google Sheets) is prefixed with `'`, so it is shown as text, never run.
 * Numbers are written as numbers (a negative number is a value, not a formula); null and
 * undefined are empty fields.
 */
export type CsvCell = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** A text value made inert for spreadsheets. */
export const markFormula = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** The value as it was before markFormula (a `'` before one of the formula characters is removed): an export imports back as it was. */
export const unmarkFormula = (text: string): string => (text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text);

/** One field, neutralized and quoted as needed. */
export function csvField(cell: CsvCell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  if (typeof cell === 'boolean') return cell ? 'true' : 'false';
  const text = markFormula(cell);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, ended by CRLF. */
export const csvRecord = (cells: readonly CsvCell[]): string => `${cells.map(csvField).join(',')}\r\n`;

/** A whole document: the header record, then one record per row. */
export function toCsv(header: string[], rows: CsvCell[][]): string {
  return [header, ...rows].map(csvRecord).join('');
}

/** The byte-order mark that makes spreadsheets read a file as UTF-8. */
export const CSV_BOM = '\ufeff';

/** A file name safe in a Content-Disposition header: letters, digits, dot, dash and underscore. */
export function csvFileName(...parts: string[]): string {
  return `${parts
    .map((p) => p.replace(/[^A-Za-z0-9._-]+/g, '-'))
    .filter(Boolean)
    .join('_')}.csv`;
}

/** The HTTP answer of a CSV document, offered as a download named `fileName`. */
export function csvResponse(csv: string, fileName: string): Response {
  return new Response(csv, {
    status: 200,
    headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${fileName}"` },
  });
}
