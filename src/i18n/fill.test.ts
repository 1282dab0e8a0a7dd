import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './fill.ts';

describe('fillPlaceholders', () => {
  it('fills known placeholders, repeated ones too, and keeps unknown ones visible', () => {
    expect(fillPlaceholders('{n} of {total}, {n} again', { n: 3, total: 8 })).toBe('3 of 8, 3 again');
    expect(fillPlaceholders('missing {x}', {})).toBe('missing {x}');
    expect(fillPlaceholders('zero {n}', { n: 0 })).toBe('zero 0');
  });

  it('picks the English word form for a count: one for 1, other otherwise (0, 2, 1.5)', () => {
    const text = '{count} {count|result|results}';
    expect([1, 0, 2, 1.5].map((count) => fillPlaceholders(text, { count }))).toEqual(['1 result', '0 results', '2 results', '1.5 results']);
    expect(fillPlaceholders('{n|quiz|quizzes}', {})).toBe('{n|quiz|quizzes}');
  });
});
