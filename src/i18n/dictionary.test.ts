import { describe, expect, it } from 'vitest';
import { dictionarySchema } from './dictionary.ts';
import { dictionaries, useTranslations } from './index.ts';
import { en } from './ui/en.ts';

describe('UI dictionaries', () => {
  it.each(['vi', 'en'] as const)('%s has every key, no extra key, and matching placeholders', (lang) => {
    const result = dictionarySchema(lang).safeParse(dictionaries[lang]);
    expect(result.success, result.error?.message).toBe(true);
  });

  it('rejects a dictionary with a missing key', () => {
    const { ['home.start']: _dropped, ...partial } = en;
    expect(dictionarySchema('en').safeParse(partial).success).toBe(false);
  });

  it('rejects a Vietnamese string typed without diacritics', () => {
    expect(dictionarySchema('vi').safeParse({ ...dictionaries.vi, 'home.start': 'Bat dau hoc' }).success).toBe(false);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    const t = useTranslations('vi');
    expect(t('home.lessonCount', { count: 3 })).toBe('3 bài');
    expect(t('home.lessonCount')).toBe('{count} bài');
  });
});
