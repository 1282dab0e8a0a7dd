/**
 * The language a custom element was rendered in: its data-lang, which the component that renders it
 * sets from Astro.locals.lang. A missing or unknown one is a bug in that component, so it fails here
 * by name rather than fall back to a language the page is not in. No zod: this runs in the browser.
 */
import type { Lang } from './langs.ts';

export function elementLang(el: HTMLElement): Lang {
  const lang = el.dataset['lang'];
  if (lang === 'vi' || lang === 'en') return lang;
  throw new Error(`<${el.localName}> has data-lang ${JSON.stringify(lang)}, not vi or en: the component that renders it must set it.`);
}

/**
 * The UI strings a custom element was rendered with: its data-strings, the JSON its component wrote
 * from `stringsWithPrefix(t, '<prefix>.')`, so they are already in the element's language. None
 * (an element made by a test) is an empty table.
 */
export function elementStrings<T = Record<string, string>>(el: HTMLElement): T {
  return JSON.parse(el.dataset['strings'] ?? '{}') as T;
}
