import { describe, expect, test } from 'vitest';
import { locateError, parseTscOutput } from './location.ts';

describe('locateError', () => {
  test('reads an esbuild transform error', () => {
    const message = 'Transform failed with 1 error:\n/tmp/grade-x/src/retry.ts:3:9: ERROR: Expected "}" but found "1"';
    expect(locateError({ message }, ['retry.ts'])).toEqual({ file: 'retry.ts', line: 3, column: 9, message: 'Expected "}" but found "1"' });
  });

  test('falls back to the first stack frame in a learner file', () => {
    const error = {
      message: 'boom is not defined',
      stack:
        'ReferenceError: boom is not defined\n    at file:///work/node_modules/vitest/dist/x.js:1:1\n    at load (/tmp/g/src/lib/util.ts:12:5)\n    at /tmp/g/src/retry.ts:2:1',
    };
    expect(locateError(error, ['retry.ts', 'lib/util.ts'])).toEqual({ file: 'lib/util.ts', line: 12, column: 5, message: 'boom is not defined' });
  });

  test('ignores files that are not the learner’s', () => {
    expect(locateError({ message: 'x', stack: 'Error: x\n    at /tmp/g/tests/a.test.ts:1:1' }, ['retry.ts'])).toBeUndefined();
  });
});

describe('parseTscOutput', () => {
  test('keeps errors in learner files with their continuation lines', () => {
    const out = [
      "src/retry.ts(10,7): error TS2322: Type 'string' is not assignable to type 'number'.",
      "tests/helpers.ts(1,1): error TS2307: Cannot find module 'x'.",
      'src/retry.ts(20,3): error TS2345: Argument of type',
      "  'number' is not assignable.",
      'Found 3 errors.',
    ].join('\n');
    expect(parseTscOutput(out, ['retry.ts'])).toEqual([
      { file: 'retry.ts', line: 10, column: 7, message: "TS2322: Type 'string' is not assignable to type 'number'." },
      { file: 'retry.ts', line: 20, column: 3, message: "TS2345: Argument of type\n'number' is not assignable." },
    ]);
  });
});
