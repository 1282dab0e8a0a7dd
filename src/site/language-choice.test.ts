import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './language-choice.ts';

describe('choosing the language for "/"', () => {
  it('prefers an explicit earlier choice over the browser', () => {
    expect(chooseLanguage('en', ['vi-VN'])).toBe('en');
  });
  it('follows the first supported browser language', () => {
    expect(chooseLanguage(null, ['fr-FR', 'en-GB', 'vi'])).toBe('en');
    expect(chooseLanguage(null, ['vi-VN', 'en-US'])).toBe('vi');
  });
  it('falls back to Vietnamese, and ignores a corrupted saved value', () => {
    expect(chooseLanguage(null, ['de-DE'])).toBe('vi');
    expect(chooseLanguage('klingon', [])).toBe('vi');
  });
});
