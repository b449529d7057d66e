/**
 * A CSV reader after RFC 4180: fields separated by a delimiter, records by CRLF or LF (a lone CR
 * too); a field in double quotes may hold delimiters, line breaks and doubled quotes (`""` is one
 * `"`). A UTF-8 byte-order mark is dropped. The delimiter is `,` unless the header line (outside
 * quotes) holds more `;` or tabs, as spreadsheets of some locales write. Lenient where files in the
 * wild are: a quote inside an unquoted field, or text after a closing quote, is kept as text.
 *
 * Records are numbered as a spreadsheet shows them: the header is row 1, the first record below it
 * row 2 (a field spanning lines is still one row). Records whose fields are all empty are skipped.
 * Pure: runs in the browser too (the console's import preview).
 */
export interface CsvRecord {
  /** Row number in the file (header = 1). */
  row: number;
  cells: string[];
}

export interface ParsedCsv {
  delimiter: ',' | ';' | '\t';
  header: string[];
  records: CsvRecord[];
}

export class CsvError extends Error {}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** The delimiter of the first line: the most frequent of `,` `;` and tab outside quotes (`,` on a tie). */
export function detectDelimiter(text: string): ',' | ';' | '\t' {
  const counts = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && (c === ',' || c === ';' || c === '\t')) counts[c]++;
  }
  if (counts[';'] > counts[','] && counts[';'] >= counts['\t']) return ';';
  if (counts['\t'] > counts[','] && counts['\t'] > counts[';']) return '\t';
  return ',';
}

/**
 * Parses `text`; `maxRecords` stops once more data records than that were read (the caller refuses
 * the file: `truncated`). An unclosed quote is a CsvError naming its row.
 */
export function parseCsv(input: string, o: { maxRecords?: number } = {}): ParsedCsv & { truncated: boolean } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const delimiter = detectDelimiter(text);
  const d = delimiter.charCodeAt(0);
  const all: CsvRecord[] = [];
  let cells: string[] = [];
  let row = 1;
  let i = 0;
  const n = text.length;
  const max = o.maxRecords === undefined ? Infinity : o.maxRecords + 1; // + the header
  let truncated = false;
  const endRecord = () => {
    if (!(cells.length === 1 && cells[0] === '') || all.length === 0) {
      if (cells.some((c) => c !== '') || all.length === 0) all.push({ row, cells });
    }
    cells = [];
    row++;
  };
  while (i < n) {
    if (all.length > max) {
      truncated = true;
      break;
    }
    let field = '';
    if (text.charCodeAt(i) === QUOTE) {
      const startRow = row;
      i++;
      for (;;) {
        const q = text.indexOf('"', i);
        if (q === -1) throw new CsvError(`Row ${startRow}: a quoted field is not closed`);
        field += text.slice(i, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          i = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      // Text after the closing quote, up to the next delimiter or line end, is kept.
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === d || c === CR || c === LF) break;
        j++;
      }
      field += text.slice(i, j);
      i = j;
    } else {
      let j = i;
      while (j < n) {
        const c = text.charCodeAt(j);
        if (c === d || c === CR || c === LF) break;
        j++;
      }
      field = text.slice(i, j);
      i = j;
    }
    cells.push(field);
    if (i >= n) break;
    const c = text.charCodeAt(i);
    if (c === d) {
      i++;
      if (i >= n) cells.push('');
    } else {
      i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
      endRecord();
    }
  }
  if (cells.length > 0) endRecord();
  if (all.length > max) truncated = true;
  const [head, ...records] = all;
  return { delimiter, header: head ? head.cells.map((h) => h.trim()) : [], records: truncated ? records.slice(0, max - 1) : records, truncated };
}
