import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.ts';

describe('gradebook CSV', () => {
  it('quotes commas, quotes and line breaks', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Nguyễn, Văn An')).toBe('"Nguyễn, Văn An"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(46.5)).toBe('46.5');
  });

  it('keeps a learner-written cell from running as a spreadsheet formula', () => {
    for (const evil of ['=HYPERLINK("http://x","y")', '+1+1', '-2+3', '@SUM(A1)', '\t=1', '\r=1']) {
      const cell = csvCell(evil);
      expect(cell.replace(/^"/, '').startsWith("'"), evil).toBe(true);
    }
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes CRLF rows after a UTF-8 byte order mark, and reads back the same cells', () => {
    const rows = [
      ['Họ tên', 'E-mail'],
      ['Nguyễn, "An"', 'an@example.com'],
      ['x\ny', ''],
    ];
    const text = toCsv(rows);
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(parseCsv(text)).toEqual(rows);
  });
});
