/**
 * The gradebook as CSV (RFC 4180: comma, CRLF, quotes doubled), opened by spreadsheets. Learners
 * write their own names, so nothing in a cell may be read as a formula (=, +, -, @), whatever list
 * separator the spreadsheet uses: Excel set to Vietnamese (and most of Europe) splits lines at `;`,
 * not `,`, and then honours quotes only at the start of a field, so `An;=1+1` would become a name
 * and a formula cell. Every place where a cell could begin under any separator (the start, and after
 * `,` `;` tab or a line break, past spaces and quotes) gets an apostrophe before the formula sign.
 * A UTF-8 byte order mark makes Excel read Vietnamese right.
 */

/** Where a spreadsheet could start a cell, under any list separator, followed by a formula sign. */
const FORMULA_AT_CELL_START = /(^|[,;\t\r\n])([ "]*)(?=[=+\-@])/g;
/** A tab or carriage return first is also read as the start of a formula by some spreadsheets. */
const CONTROL_START = /^[\t\r]/;
const NEEDS_QUOTES = /[",;\t\r\n]/;

/** The cell's text with an apostrophe wherever a spreadsheet could read a formula. */
export function neutraliseFormulas(value: string): string {
  const guarded = value.replace(FORMULA_AT_CELL_START, "$1$2'");
  return CONTROL_START.test(guarded) ? `'${guarded}` : guarded;
}

export function csvCell(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const guarded = neutraliseFormulas(value);
  return NEEDS_QUOTES.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

export const CSV_BOM = '\uFEFF';

export function toCsv(rows: Array<Array<string | number>>): string {
  return CSV_BOM + rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Reads CSV written by `toCsv` back into cells (tests and tools; quotes, doubled quotes, newlines in cells). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.startsWith(CSV_BOM) ? text.slice(1) : text;
  for (let i = 0; i < src.length; i++) {
    const ch = src[i]!;
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && src[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}
