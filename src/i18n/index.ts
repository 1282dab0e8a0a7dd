import { en } from './ui/en.ts';
import { vi } from './ui/vi.ts';
import type { Dictionary, UiKey } from './dictionary.ts';
import type { Lang } from './langs.ts';

export * from './langs.ts';
export type { UiKey, Dictionary } from './dictionary.ts';

export const dictionaries: Record<Lang, Dictionary> = { vi, en };

/** A translator for one language: t('home.lessonCount', { count: 3 }). */
export function useTranslations(lang: Lang) {
  const dict = dictionaries[lang];
  return (key: UiKey, vars: Record<string, string | number> = {}) =>
    dict[key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
