import { describe, expect, it } from 'vitest';
import { parseCsv } from '@/lib/leads/csv-parse';
import { proposeMapping } from '@/lib/leads/import-mapping';

describe('CSV reader', () => {
  it('reads RFC 4180: quoted delimiters, line breaks and quotes, a BOM, CRLF, blank lines; rows numbered as in the file', () => {
    const parsed = parseCsv('\ufeffa,b\r\n"1,2","x""y\r\nz"\r\n\r\n,\r\nlast,\r\n');
    expect(parsed.delimiter).toBe(',');
    expect(parsed.header).toEqual(['a', 'b']);
    expect(parsed.records).toEqual([
      { row: 2, cells: ['1,2', 'x"y\r\nz'] },
      { row: 5, cells: ['last', ''] },
    ]);
  });

  it('detects `;` and tab separators from the header line', () => {
    expect(parseCsv('a;b\n"1;2";3\n').records[0].cells).toEqual(['1;2', '3']);
    expect(parseCsv('a\tb\n1\t2').delimiter).toBe('\t');
    expect(parseCsv('"a;b",c\n1,2').delimiter).toBe(',');
  });

  it('names the row of an unclosed quote and stops past the row limit', () => {
    expect(() => parseCsv('a\n1\n"open\n')).toThrow(/Row 3: a quoted field is not closed/);
    expect(parseCsv('a\n1\n2\n3\n', { maxRecords: 2 }).truncated).toBe(true);
    expect(parseCsv('a\n1\n2\n', { maxRecords: 2 }).truncated).toBe(false);
  });
});

describe('proposed mapping', () => {
  it('matches common headers and custom properties, each target once', () => {
    expect(proposeMapping(['E-mail', 'First Name', 'Surname', 'Organisation', 'Plan', 'Email', 'Other'], [{ key: 'plan', label: 'Plan' }])).toEqual({
      'E-mail': 'email',
      'First Name': 'first_name',
      Surname: 'last_name',
      Organisation: 'company',
      Plan: 'plan',
      Email: null,
      Other: null,
    });
  });
});
