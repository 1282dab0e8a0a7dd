// What the lessons and quizzes say Node does with a timer's delay, checked against the Node that runs
// the course (and grades the exercises): a quiz keyed to a false answer teaches the bug it warns of.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const quiz = (file: string) => readFileSync(join(root, 'content', 'quizzes', file), 'utf8');

const thrown = (fn: () => unknown) => {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as Error).name;
  }
};

const abortsWithin = (signal: AbortSignal, ms: number) =>
  new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve(true)));
  });

describe('AbortSignal.timeout, as the course describes it', () => {
  test('throws RangeError for a fraction, a negative number and 2^32 or more: floor and clamp, as the keyed answer says', () => {
    for (const ms of [1.5, -1, 2 ** 32])
      expect(
        thrown(() => AbortSignal.timeout(ms)),
        String(ms),
      ).toBe('RangeError');
    const keyed = quiz('when-to-retry-transient-or-permanent-check.json');
    expect(keyed).toContain('floor and clamp the value');
    expect(keyed).toContain('làm tròn xuống và chặn biên giá trị');
  });

  test('from 2^31 to 2^32 − 1 it fires after about 1 ms instead of throwing, as the explanation says', async () => {
    const warn = process.emitWarning;
    process.emitWarning = () => undefined; // the TimeoutOverflowWarning this provokes on purpose
    try {
      for (const ms of [2 ** 31, 2 ** 32 - 1]) expect(await abortsWithin(AbortSignal.timeout(ms), 500), String(ms)).toBe(true);
    } finally {
      process.emitWarning = warn;
    }
    expect(quiz('timeouts-timeout-scope-check.json')).toContain('from 2^31 to 2^32 - 1 (from 2^32 on it throws RangeError)');
  });

  test('setTimeout never throws for a large delay: it fires after about 1 ms', async () => {
    const warn = process.emitWarning;
    process.emitWarning = () => undefined;
    try {
      const fired = await new Promise<boolean>((resolve) => {
        const guard = setTimeout(() => resolve(false), 500);
        setTimeout(() => (clearTimeout(guard), resolve(true)), 2 ** 31);
      });
      expect(fired).toBe(true);
    } finally {
      process.emitWarning = warn;
    }
  });
});
