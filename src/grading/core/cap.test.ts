import { describe, expect, test } from 'vitest';
import { cap, relativize, stripAnsi } from './cap.ts';

describe('cap', () => {
  test('keeps short text and cuts long text to the limit with a mark', () => {
    expect(cap('abc', 5)).toBe('abc');
    expect(cap('abcdef', 5)).toBe('abcd…');
    expect(cap('x'.repeat(2000), 500)).toHaveLength(500);
  });
  test('strips ANSI colours', () => {
    expect(stripAnsi('\u001b[31mred\u001b[39m ok')).toBe('red ok');
  });
  test('drops the sandbox root from paths and file URLs', () => {
    expect(relativize('at /tmp/grade-1/src/a.ts:1:2 and file:///tmp/grade-1/tests/x.ts', '/tmp/grade-1')).toBe('at src/a.ts:1:2 and tests/x.ts');
    expect(relativize('unchanged', undefined)).toBe('unchanged');
  });
});
