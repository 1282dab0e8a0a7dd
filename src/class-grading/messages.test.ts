import { describe, expect, it } from 'vitest';
import { cm } from './messages.ts';

describe('grade-class messages', () => {
  it('fills values in the chosen language', () => {
    expect(cm('vi', 'progress.graded', { done: 12, count: 40, email: 'an@example.com', passed: 2, exercises: 2, seconds: '3.1' })).toBe(
      '12/40 an@example.com 2/2 bài tập 3.1 s',
    );
    expect(cm('en', 'progress.graded', { done: 12, count: 40, email: 'an@example.com', passed: 2, exercises: 2, seconds: '3.1' })).toBe(
      '12/40 an@example.com 2/2 exercises 3.1 s',
    );
  });
});
