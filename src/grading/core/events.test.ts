import { describe, expect, test } from 'vitest';
import { hungTest, openTests, parseJsonLines, type ProgressEvent } from './events.ts';

describe('events', () => {
  test('parseJsonLines skips blank, partial and untyped lines', () => {
    expect(parseJsonLines('{"type":"a"}\n\n{"x":1}\n{"type":"b"}\n{"type":"c",')).toEqual([{ type: 'a' }, { type: 'b' }]);
    expect(parseJsonLines(undefined)).toEqual([]);
  });

  test('hungTest is the last test that started and did not end', () => {
    const p: ProgressEvent[] = [
      { type: 'start', id: 'a', name: 'R1 a' },
      { type: 'end', id: 'a', state: 'pass', errors: [] },
      { type: 'start', id: 'b', name: 'R2 b' },
    ];
    expect(hungTest(p)).toEqual({ id: 'b', name: 'R2 b' });
    expect(hungTest([...p, { type: 'end', id: 'b', errors: [] }])).toBeUndefined();
  });

  test('openTests lists every test still running, in start order (concurrent tests)', () => {
    const p: ProgressEvent[] = [
      { type: 'start', id: 'a', name: 'D1 a' },
      { type: 'start', id: 'b', name: 'D1 b' },
      { type: 'start', id: 'c', name: 'D1 c' },
      { type: 'end', id: 'b', state: 'pass', errors: [] },
    ];
    expect(openTests(p)).toEqual([
      { id: 'a', name: 'D1 a' },
      { id: 'c', name: 'D1 c' },
    ]);
    expect(hungTest(p)).toEqual({ id: 'c', name: 'D1 c' });
  });
});
