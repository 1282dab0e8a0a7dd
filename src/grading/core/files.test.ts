import { describe, expect, test } from 'vitest';
import { GradeInputError, validateLearnerFiles } from './files.ts';
import { tinyExercise } from '../testing/test-fixtures.ts';

const codeOf = (files: Record<string, string>) => {
  try {
    validateLearnerFiles(tinyExercise, files);
    return 'ok';
  } catch (e) {
    return e instanceof GradeInputError ? e.code : String(e);
  }
};

describe('validateLearnerFiles', () => {
  test('accepts exactly the editable files', () => {
    expect(codeOf({ 'add.ts': '' })).toBe('ok');
  });
  test('rejects missing, extra, read-only and escaping names', () => {
    expect(codeOf({})).toBe('missing-file');
    expect(codeOf({ 'add.ts': '', 'other.ts': '' })).toBe('extra-file');
    expect(codeOf({ 'add.ts': '', 'types.ts': '' })).toBe('extra-file');
    for (const bad of ['../add.ts', '/add.ts', 'a/../add.ts', '.hidden', 'a\\b.ts', '']) {
      expect(codeOf({ [bad]: '' }), bad).toBe('bad-path');
    }
  });
  test('messages exist in both languages', () => {
    const err = new GradeInputError('missing-file', { file: 'add.ts', expected: 'add.ts' });
    expect(err.localized('en')).toBe('Missing file add.ts: the exercise needs add.ts.');
    expect(err.localized('vi')).toBe('Thiếu file add.ts: bài tập cần add.ts.');
  });
});
