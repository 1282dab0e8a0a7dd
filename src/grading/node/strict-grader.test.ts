// Which exercises strict grading leaves to one (confined) process, and that each says why.
import { describe, expect, test } from 'vitest';
import { fsExerciseSource } from './fs-source.ts';
import { NOT_STRICT, notStrictReasons, strictSupported } from './strict-grader.ts';

describe('exercises graded in one process', () => {
  test('only service-chain (HTTP servers the tests connect to), with its reason', async () => {
    expect(NOT_STRICT).toEqual(['service-chain']);
    expect([...notStrictReasons.keys].sort()).toEqual([...NOT_STRICT].sort());
    const ids = await fsExerciseSource().ids();
    for (const id of NOT_STRICT) {
      expect(ids, 'an exercise of the course').toContain(id);
      for (const lang of ['en', 'vi'] as const) expect(notStrictReasons.t(lang, id as never).length, `${id} says why (${lang})`).toBeGreaterThan(40);
      expect(strictSupported(id)).toBe(false);
    }
    expect(ids.filter(strictSupported)).toHaveLength(ids.length - 1);
  });
});
