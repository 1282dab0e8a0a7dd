import { describe, expect, it } from 'vitest';
import { REPORT_LOGIC, reportScriptTag } from './report-script.ts';

interface Api {
  fold(text: string): string;
  cellKey(text: string): number | string | null;
  sortOrder(rows: string[][], col: number, dir: 'ascending' | 'descending', lang: string): number[];
  matches(row: { text: string; percent: number; broken: string[] }, filter: { text?: string; below?: string; rule?: string }): boolean;
}
// The very text the report embeds, run without a document: only its pure part answers.
const api = new Function(`return (${REPORT_LOGIC})`)()(undefined, {}) as Api;

describe('the report’s sort and filter logic', () => {
  it('reads cells as numbers, shares or words', () => {
    expect(api.cellKey('80.0')).toBe(80);
    expect(api.cellKey(' 12 ')).toBe(12);
    expect(api.cellKey('45/48')).toBeCloseTo(45 / 48);
    expect(api.cellKey('0/0')).toBe(0);
    expect(api.cellKey('not handed in')).toBe('not handed in');
    expect(api.cellKey('2026-12-01 23:59')).toBe('2026-12-01 23:59');
    expect(api.cellKey('')).toBeNull();
  });

  const rows = [
    ['Trần Bình', '52.5', '3/4', 'late'],
    ['an', '80.0', '', 'on time'],
    ['Ánh', '9', 'not handed in', 'on time'],
    ['Bảo', '80.0', '4/4', ''],
  ];
  it('sorts numbers as numbers, words with Vietnamese collation, empty cells last both ways, ties stable', () => {
    expect(api.sortOrder(rows, 1, 'ascending', 'vi')).toEqual([2, 0, 1, 3]);
    expect(api.sortOrder(rows, 1, 'descending', 'vi')).toEqual([1, 3, 0, 2]); // 80.0 twice: first-come first
    expect(api.sortOrder(rows, 0, 'ascending', 'vi')).toEqual([1, 2, 3, 0]); // an, Ánh, Bảo, Trần (accents and case aside)
    expect(api.sortOrder(rows, 2, 'ascending', 'vi')).toEqual([0, 3, 2, 1]); // 3/4, 4/4, then words, then the empty cell
    expect(api.sortOrder(rows, 2, 'descending', 'vi')).toEqual([2, 3, 0, 1]); // words first when reversed, empty still last
    expect(api.sortOrder(rows, 3, 'descending', 'en')).toEqual([1, 2, 0, 3]);
  });

  const row = { text: 'Nguyễn Văn An an@example.com 3/4 R2 trễ hạn backoff: chưa nộp', percent: 52.5, broken: ['retry-helper:R2'] };
  it('filters by text (case and accents aside), by a percentage and by a broken rule, all at once', () => {
    expect(api.matches(row, {})).toBe(true);
    expect(api.matches(row, { text: 'nguyen van' })).toBe(true);
    expect(api.matches(row, { text: 'AN@EXAMPLE' })).toBe(true);
    expect(api.matches(row, { text: 'tre han' })).toBe(true);
    expect(api.matches(row, { text: 'chưa nộp' })).toBe(true);
    expect(api.matches(row, { text: 'binh' })).toBe(false);
    expect(api.matches(row, { below: '60' })).toBe(true);
    expect(api.matches(row, { below: '52.5' })).toBe(false);
    expect(api.matches(row, { below: 'abc' })).toBe(true);
    expect(api.matches(row, { rule: 'retry-helper:R2' })).toBe(true);
    expect(api.matches(row, { rule: 'retry-helper:R1' })).toBe(false);
    expect(api.matches(row, { text: 'an', below: '50' })).toBe(false);
    expect(api.fold('  Đặng   THỊ ')).toBe('dang thi');
  });

  it('embeds as one inline script whose strings cannot close the tag', () => {
    const tag = reportScriptTag({
      filter: '</script><b>',
      filterHint: '',
      below: '',
      rule: '',
      anyRule: '',
      shown: '',
      sortedBy: '',
      ascending: '',
      descending: '',
      lang: 'en',
    });
    expect(tag.match(/<\/script>/g)).toHaveLength(1);
    expect(tag).toContain('\\u003c/script>\\u003cb>');
    expect(tag).not.toMatch(/src=|https?:\/\/|fetch\(|import\(/);
  });
});
