/** npm run check's report in Vietnamese: the failing test named in Vietnamese with its input, vitest's words framed. */
import { describe, expect, it } from 'vitest';
import type { Report } from '../src/grading/index.ts';
import { tinyExercise } from '../src/grading/testing/test-fixtures.ts';
import { formatReport } from './format-report.ts';

const failing = (details: string): Report => ({
  version: 3,
  status: 'fail',
  tests: [
    {
      rule: 'R1',
      name: 'R1 adds 2 and 3 to 5',
      status: 'fail',
      message: 'Phép cộng của bạn sai.',
      hint: 'Dùng toán tử +.',
      details,
      duration: 3,
      output: '',
    },
  ],
  typeErrors: [],
  counts: { passed: 0, failed: 1, total: 1 },
  durationMs: 1200,
});
const names = { 'R1 adds %i and %i to %i': 'R1 cộng %i với %i ra %i' };

describe('formatReport', () => {
  it('says in Vietnamese what the test expected and got, quotes vitest, and names the test in Vietnamese', () => {
    const text = formatReport(failing('expected 6 to be 5 // Object.is equality'), tinyExercise, 'vi', { color: false, names });
    expect(text).toContain(
      '    quan sát được: kiểm thử mong đợi 5 nhưng nhận được 6.\n    vitest báo (nguyên văn, tiếng Anh): expected 6 to be 5 // Object.is equality',
    );
    expect(text).toContain('    test: R1 cộng 2 với 3 ra 5 (R1 adds 2 and 3 to 5)');
  });

  it('keeps a message of another shape as it is, and English names in English', () => {
    const text = formatReport(failing('TypeError: add is not a function'), tinyExercise, 'en', { color: false, names });
    expect(text).toContain('    observed: TypeError: add is not a function\n    test: R1 adds 2 and 3 to 5\n');
  });
});
