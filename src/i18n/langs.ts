// zod/mini: this module is on every page (the language switch), and the mini API tree-shakes.
import { z } from 'zod/mini';

/** Vietnamese first: it is the course's default language. */
export const LANGS = ['vi', 'en'] as const;
export type Lang = (typeof LANGS)[number];
export const DEFAULT_LANG: Lang = 'vi';

export const langSchema = z.enum(LANGS);

export function isLang(value: unknown): value is Lang {
  return typeof value === 'string' && (LANGS as readonly string[]).includes(value);
}

export function otherLang(lang: Lang): Lang {
  return lang === 'vi' ? 'en' : 'vi';
}

/** Vietnamese text is expected to carry its diacritics; a run of plain ASCII is a sign they were lost. */
const VIETNAMESE_MARKS = /[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]/i;
export function hasVietnameseDiacritics(text: string): boolean {
  return VIETNAMESE_MARKS.test(text.normalize('NFC'));
}

/** A string given in both languages. The Vietnamese one must really be Vietnamese. */
export const bilingual = z.object({
  vi: z.string().check(
    z.minLength(1),
    z.refine(hasVietnameseDiacritics, {
      message: 'Vietnamese text has no diacritics (was it left in English, or typed without marks?)',
    }),
  ),
  en: z.string().check(z.minLength(1)),
});
export type Bilingual = z.infer<typeof bilingual>;

/** Like `bilingual`, for short strings (labels, numbers with units) that may be the same in both. */
export const bilingualLabel = z.object({ vi: z.string().check(z.minLength(1)), en: z.string().check(z.minLength(1)) });
