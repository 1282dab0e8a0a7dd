import { z } from 'zod';
import { en } from './ui/en.ts';
import { hasVietnameseDiacritics } from './langs.ts';

export type UiKey = keyof typeof en;
export type Dictionary = Record<UiKey, string>;

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join();

/**
 * A dictionary must have every key of the English one, no other key, and the same {placeholders}.
 * Vietnamese entries must read as Vietnamese (diacritics), except those that are the same word in both.
 */
export function dictionarySchema(lang: 'vi' | 'en') {
  const keys = Object.keys(en) as UiKey[];
  const shape = Object.fromEntries(
    keys.map((key) => [
      key,
      z
        .string()
        .min(1)
        .refine((text) => placeholders(text) === placeholders(en[key]), {
          message: `placeholders must be ${placeholders(en[key]) || 'none'}`,
        })
        .refine((text) => lang !== 'vi' || SAME_IN_BOTH.has(key) || hasVietnameseDiacritics(text), {
          message: 'Vietnamese string without diacritics',
        }),
    ]),
  );
  return z.strictObject(shape);
}

/** Keys whose Vietnamese text may legitimately carry no diacritics. */
const SAME_IN_BOTH = new Set<UiKey>(['lang.switch', 'lang.switchLabel', 'module.label', 'embed.lab', 'embed.quiz', 'lesson.inModule']);
