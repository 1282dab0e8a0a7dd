/**
 * One way to keep messages in both languages: `defineCatalog({ vi, en })`. The English table names
 * the keys; the Vietnamese one must have exactly the same (a missing or extra key is a type error),
 * and src/i18n/catalogs.test.ts checks every catalog for placeholders, diacritics and empty strings.
 * Pure and schema-free on purpose: the browser imports catalogs (the grader's messages run in a
 * Web Worker), so only the `Lang` type comes from langs.ts, never its zod schemas.
 */
import type { Lang } from './langs.ts';
import { fillPlaceholders } from './fill.ts';

export type Vars = Record<string, string | number>;

/** A translator for one language: `t('home.lessonCount', { count: 3 })`. */
export interface Translator<K extends string> {
  (key: K, vars?: Vars): string;
  readonly lang: Lang;
  /** Every entry of this language, unfilled, in the catalog's order (for strings handed to the browser). */
  all(): Readonly<Record<K, string>>;
}

export interface Catalog<K extends string> {
  readonly keys: readonly K[];
  /** `t(lang, key, vars)`: the message in that language with its {placeholders} filled. */
  t(lang: Lang, key: K, vars?: Vars): string;
  translator(lang: Lang): Translator<K>;
  /** Keys whose Vietnamese text may carry no diacritics (the same word in both, a bare placeholder). */
  readonly sameInBoth: ReadonlySet<K>;
  /** Every key of either table with its text in both languages (undefined where one lacks it), for the catalogs test. */
  entries(): { key: string; vi: string | undefined; en: string | undefined }[];
}

export type CatalogKey<C> = C extends Catalog<infer K> ? K : never;

/** Keys of the Vietnamese table that English does not have become `never`, so an extra key fails too. */
type Exactly<Keys extends string, V> = { [P in keyof V]: P extends Keys ? string : never };

// Marked free of side effects, so a catalog nobody reads is dropped from the browser bundles.
/* @__NO_SIDE_EFFECTS__ */
export function defineCatalog<const En extends Record<string, string>, const Vi extends Record<keyof En & string, string>>(
  tables: { en: En; vi: Vi & Exactly<keyof En & string, Vi> },
  options: { sameInBoth?: readonly (keyof En & string)[] } = {},
): Catalog<keyof En & string> {
  type K = keyof En & string;
  const byLang: Record<Lang, Readonly<Record<K, string>>> = { en: tables.en, vi: tables.vi };
  const keys = Object.keys(tables.en) as K[];
  const translator = (lang: Lang): Translator<K> =>
    Object.assign((key: K, vars: Vars = {}) => fillPlaceholders(byLang[lang][key], vars), { lang, all: () => byLang[lang] });
  const translators = { vi: translator('vi'), en: translator('en') };
  return {
    keys,
    t: (lang, key, vars) => translators[lang](key, vars),
    translator: (lang) => translators[lang],
    sameInBoth: new Set(options.sameInBoth ?? []),
    entries: () => {
      const texts: Record<Lang, Partial<Record<string, string>>> = byLang;
      return [...new Set([...keys, ...Object.keys(tables.vi)])].map((key) => ({ key, vi: texts.vi[key], en: texts.en[key] }));
    },
  };
}

/** Keys that start with the prefix (`'ws.'`), or equal it; as a type, what `stringsWithPrefix` returns. */
export type KeysWithPrefix<K extends string, P extends string> = Extract<K, `${P}${string}`>;

/**
 * The unfilled text of every key starting with one of the prefixes, keyed by the full key: what a
 * component hands a custom element, so no list of keys is kept by hand (the browser fills them).
 */
export function stringsWithPrefix<K extends string, P extends string>(t: Translator<K>, ...prefixes: P[]): Record<KeysWithPrefix<K, P>, string> {
  return Object.fromEntries(Object.entries<string>(t.all()).filter(([key]) => prefixes.some((p) => key.startsWith(p)))) as Record<KeysWithPrefix<K, P>, string>;
}
