/**
 * UI strings for browser scripts: the page passes the ones a script needs as a data attribute
 * (`stringsFor` at build time), the script fills in `{placeholders}` (`fill`).
 */
import { ui, type Lang } from '../i18n/index.ts';
import { fillPlaceholders } from '../i18n/fill.ts';

export type Strings = Record<string, string>;

/** Every string whose key starts with one of the prefixes, keyed without the prefix's last dot. */
export function stringsFor(lang: Lang, ...keys: string[]): Strings {
  const dict: Record<string, string> = ui.translator(lang).all();
  return Object.fromEntries(Object.entries(dict).filter(([k]) => keys.some((p) => (p.endsWith('.') ? k.startsWith(p) : k === p))));
}

export function fill(template: string | undefined, vars: Record<string, string | number> = {}): string {
  return fillPlaceholders(template ?? '', vars);
}

export function readStrings(el: Element | null): Strings {
  try {
    return JSON.parse((el as HTMLElement | null)?.dataset.strings ?? '{}') as Strings;
  } catch {
    return {};
  }
}
