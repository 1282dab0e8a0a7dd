import { describe, expect, it } from 'vitest';
import { fillPlaceholders } from './fill.ts';

describe('fillPlaceholders', () => {
  it('fills known placeholders, repeated ones too, and keeps unknown ones visible', () => {
    expect(fillPlaceholders('{n} of {total}, {n} again', { n: 3, total: 8 })).toBe('3 of 8, 3 again');
    expect(fillPlaceholders('missing {x}', {})).toBe('missing {x}');
    expect(fillPlaceholders('zero {n}', { n: 0 })).toBe('zero 0');
  });
});
