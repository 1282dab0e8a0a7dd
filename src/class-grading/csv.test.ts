import { describe, expect, it } from 'vitest';
import { csvCell, parseCsv, toCsv } from './csv.ts';

/**
 * How a spreadsheet set to `separator` splits a line, at its most careless: quotes are honoured only
 * at the very start of a field (as Excel does), so a quote in the middle opens nothing.
 */
function spreadsheetCells(csv: string, separator: ',' | ';'): string[] {
  const cells: string[] = [];
  for (const line of csv.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/)) {
    for (const field of line.split(separator)) cells.push(field);
  }
  return cells;
}
/** A field a spreadsheet would evaluate: a formula sign first, past spaces and opening quotes. */
const isFormula = (field: string) => /^[ "]*[=+\-@]/.test(field);

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

  // The attack: with a `;` list separator (Vietnamese Excel), `An;=1+1` was a name and a formula cell.
  it.each([',', ';'] as const)('no cell is a formula when the sheet is opened with "%s" as its separator', (separator) => {
    const names = [
      'An;=1+1',
      'An,=1+1',
      'An; =cmd|"/c calc"!A1',
      'An;"=1+1',
      'B\n+1',
      'C\t@SUM(A1)',
      'x;-2+3',
      '=HYPERLINK("http://x")',
      'Nguyễn-Văn An; Bình',
    ];
    const csv = toCsv([['Name', 'E-mail'], ...names.map((name) => [name, 'a@x.co'])]);
    const formulas = spreadsheetCells(csv, separator).filter(isFormula);
    expect(formulas).toEqual([]);
    // And read as RFC 4180 (a comma sheet), every name is still there to recognise, with the apostrophes.
    expect(
      parseCsv(csv)
        .slice(1)
        .map((r) => r[0]!.replace(/'/g, '')),
    ).toEqual(names);
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['Nguyễn Văn An', 'an-binh@example.com', '2026-11-30T01:00:00.000Z', 'R1 R8', '12/16', 'quiz: not answered; x']) {
      expect(csvCell(text).replace(/^"|"$/g, '')).toBe(text);
    }
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
