// Which exercises strict grading leaves to one (confined) process, and that each says why.
import { describe, expect, test } from 'vitest';
import { fsExerciseSource } from './fs-source.ts';
import { NOT_STRICT, PROTOCOL_CANNOT_CARRY, strictSupported, TOO_MANY_CALLS } from './strict-grader.ts';

describe('exercises graded in one process', () => {
  test('service-chain (HTTP servers) and adaptive-throttle (too many calls for its timeouts), each with a reason', async () => {
    expect(Object.keys(PROTOCOL_CANNOT_CARRY)).toEqual(['service-chain']);
    expect(Object.keys(TOO_MANY_CALLS)).toEqual(['adaptive-throttle']);
    const ids = await fsExerciseSource().ids();
    for (const [id, reason] of Object.entries(NOT_STRICT)) {
      expect(ids, 'an exercise of the course').toContain(id);
      expect(reason.length, `${id} says why`).toBeGreaterThan(40);
      expect(strictSupported(id)).toBe(false);
    }
    expect(ids.filter(strictSupported)).toHaveLength(ids.length - 2);
  });
});
