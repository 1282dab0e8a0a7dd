/**
 * The bilingual glossary (content/glossary.json): one entry per term, with its definition in each
 * language, the forms that link to it from lessons (`match`) and the variants the course has given
 * up on (`avoid`), which the glossary test refuses anywhere in that language's text.
 */
import { z } from 'zod';
import { LANGS, type Lang } from '../i18n/index.ts';

const phrases = z.array(z.string().trim().min(1)).default([]);

const sideSchema = z
  .object({
    term: z.string().trim().min(1),
    definition: z.string().trim().min(20),
    match: phrases,
    avoid: phrases,
  })
  .strict();

export const glossaryEntrySchema = z
  .object({ id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'lowercase words joined by "-"'), vi: sideSchema, en: sideSchema })
  .strict();

export const glossarySchema = z
  .object({ entries: z.array(glossaryEntrySchema).min(1) })
  .strict()
  .superRefine(({ entries }, ctx) => {
    const ids = new Set<string>();
    for (const e of entries) {
      if (ids.has(e.id)) ctx.addIssue({ code: 'custom', message: `the id "${e.id}" is used twice` });
      ids.add(e.id);
    }
    for (const lang of LANGS) {
      // A form may link to one entry only, and a form may not be both preferred and avoided.
      const owner = new Map<string, string>();
      const avoided = new Set(entries.flatMap((e) => e[lang].avoid.map((a) => a.toLowerCase())));
      for (const e of entries) {
        for (const form of e[lang].match) {
          const key = form.toLowerCase();
          const other = owner.get(key);
          if (other && other !== e.id) ctx.addIssue({ code: 'custom', message: `${lang}: "${form}" links to both "${other}" and "${e.id}"` });
          owner.set(key, e.id);
          if (avoided.has(key)) ctx.addIssue({ code: 'custom', message: `${lang}: "${form}" is both a form to link and a form to avoid` });
        }
      }
    }
  });

export type Glossary = z.infer<typeof glossarySchema>;
export type GlossaryEntry = Glossary['entries'][number];
export type GlossarySide = GlossaryEntry[Lang];

/** Where an entry lives on the glossary page of a language. */
export function glossaryHref(lang: Lang, id?: string): string {
  return id ? `/${lang}/glossary/#${id}` : `/${lang}/glossary/`;
}
