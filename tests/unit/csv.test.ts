import { describe, expect, it } from 'vitest';
import { csvField, csvFileName, csvRecord, csvResponse, markFormula, toCsv, unmarkFormula } from '@/lib/core/csv';

describe('CSV documents', () => {
  it('quotes a field with a comma, a quote or a line break, quotes doubled (RFC 4180)', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('neutralizes text a spreadsheet would run as a formula', () => {
    for (const start of ['=', '+', '-', '@', '\t', '\r'])
      expect(csvField(`${start}1+2`).replace(/^"/, '').startsWith(`'${start}`), JSON.stringify(start)).toBe(true);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('\rcmd')).toBe(`"'\rcmd"`);
  });

  it('writes numbers as numbers (a negative one is a value), null and undefined as empty fields', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(0.25)).toBe('0.25');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
    expect(csvField(true)).toBe('true');
  });

  it('ends every record with CRLF, the header first', () => {
    expect(
      toCsv(
        ['value', 'n'],
        [
          ['a', 1],
          [null, 2],
        ],
      ),
    ).toBe('value,n\r\na,1\r\n,2\r\n');
  });

  it('answers as a download with a safe file name', async () => {
    const name = csvFileName('analytics', 'pages', '2026-11-01', 'x"y;z');
    expect(name).toBe('analytics_pages_2026-11-01_x-y-z.csv');
    const res = csvResponse('a\r\n', name);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(await res.text()).toBe('a\r\n');
  });

  it('takes the formula mark off again on the way in, and only that mark', () => {
    expect(csvRecord(['a', 'b "c", d', 3, null, -5])).toBe('a,"b ""c"", d",3,,-5\r\n');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) expect(unmarkFormula(markFormula(`${start}x`))).toBe(`${start}x`);
    expect(markFormula("'plain")).toBe("'plain");
    expect(unmarkFormula("'plain")).toBe("'plain");
  });
});
