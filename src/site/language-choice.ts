/** Which language "/" opens: an explicit earlier choice, else the browser's, else Vietnamese. */
import { DEFAULT_LANG, isLang, type Lang } from '../i18n/index.ts';

export const LANGUAGE_KEY = 'course.lang';

export function chooseLanguage(saved: string | null, browserLanguages: readonly string[]): Lang {
  if (isLang(saved)) return saved;
  for (const tag of browserLanguages) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLang(primary)) return primary;
  }
  return DEFAULT_LANG;
}

export function rememberLanguage(lang: string | undefined): void {
  if (!isLang(lang)) return;
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    // Storage can be disabled (private mode, policies): the switch still works, it just is not remembered.
  }
}

export function savedLanguage(): string | null {
  try {
    return localStorage.getItem(LANGUAGE_KEY);
  } catch {
    return null;
  }
}
