import { describe, expect, it } from 'vitest';
import { hasVietnameseDiacritics } from '../i18n/langs.ts';
import { classMessages, cm, SAME_IN_BOTH, type ClassKey } from './messages.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();

describe('grade-class messages', () => {
  it('has the same keys and placeholders in both languages', () => {
    expect(Object.keys(classMessages.vi).sort()).toEqual(Object.keys(classMessages.en).sort());
    for (const key of Object.keys(classMessages.en) as ClassKey[]) {
      expect(placeholders(classMessages.vi[key]), key).toBe(placeholders(classMessages.en[key]));
    }
  });

  it('writes Vietnamese with its diacritics', () => {
    const bare = (Object.keys(classMessages.vi) as ClassKey[]).filter((k) => !SAME_IN_BOTH.has(k) && !hasVietnameseDiacritics(classMessages.vi[k]));
    expect(bare).toEqual([]);
    expect(SAME_IN_BOTH.size).toBeLessThan(6);
  });

  it('fills values in the chosen language', () => {
    expect(cm('vi', 'progress.graded', { done: 12, count: 40, email: 'an@example.com', passed: 2, exercises: 2, seconds: '3.1' })).toBe(
      '12/40 an@example.com 2/2 bài tập 3.1 s',
    );
    expect(cm('en', 'progress.graded', { done: 12, count: 40, email: 'an@example.com', passed: 2, exercises: 2, seconds: '3.1' })).toBe(
      '12/40 an@example.com 2/2 exercises 3.1 s',
    );
  });
});
