import { en } from './ui/en.ts';
import { vi } from './ui/vi.ts';
import type { Dictionary, UiKey } from './dictionary.ts';
import type { Lang } from './langs.ts';
import { fillPlaceholders } from './fill.ts';

export * from './langs.ts';
export { fillPlaceholders } from './fill.ts';
export type { UiKey, Dictionary } from './dictionary.ts';

export const dictionaries: Record<Lang, Dictionary> = { vi, en };

/** A translator for one language: t('home.lessonCount', { count: 3 }). */
export function useTranslations(lang: Lang) {
  const dict = dictionaries[lang];
  return (key: UiKey, vars: Record<string, string | number> = {}) =>
    fillPlaceholders(dict[key], vars);
}
