/**
 * UI strings for browser scripts: the page passes the ones a script needs as a data attribute
 * (`stringsWithPrefix(t, 'progress.')` at build time), the script fills in `{placeholders}` (`fill`).
 */
import { elementStrings, fillPlaceholders } from '../i18n/index.ts';

export type Strings = Record<string, string>;

export function fill(template: string | undefined, vars: Record<string, string | number> = {}): string {
  return fillPlaceholders(template ?? '', vars);
}

export function readStrings(el: Element | null): Strings {
  try {
    return el ? elementStrings<Strings>(el as HTMLElement) : {};
  } catch {
    return {};
  }
}
