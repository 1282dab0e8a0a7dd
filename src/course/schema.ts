// zod/mini, like the i18n/langs.ts schemas it is built from (one schema cannot mix classic and mini).
import { z } from 'zod/mini';
import { bilingual, langSchema } from '../i18n/index.ts';

const id = z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'ids are lower-case words joined by hyphens'));
const positiveInt = () => z.number().check(z.int(), z.positive());

/** A short noun phrase in each language; technical terms often read the same in both, so no diacritics are required. */
const term = z.strictObject({ vi: z.string().check(z.trim(), z.minLength(2)), en: z.string().check(z.trim(), z.minLength(2)) });

export const moduleSchema = z.strictObject({
  id,
  order: positiveInt(),
  title: bilingual,
  summary: bilingual,
  /** One sentence for the home page's "what you will learn". */
  learn: bilingual,
  /** What the module is about, in a few words, for the list in the footer ("timeouts", "backoff and jitter"). */
  topic: term,
});
export type CourseModule = z.infer<typeof moduleSchema>;

/**
 * Front matter of a lesson file, content/lessons/<lang>/<module>/<slug>.mdx.
 * The two language files of a lesson share <module>/<slug>, which is the lesson's id.
 */
export const lessonSchema = z.strictObject({
  title: z.string().check(z.minLength(3)),
  description: z.string().check(z.minLength(20)),
  module: id,
  order: positiveInt(),
  lang: langSchema,
  minutes: z.number().check(z.int(), z.minimum(1), z.maximum(60)),
  exercises: z._default(z.array(id), []),
  quizzes: z._default(z.array(id), []),
  labs: z._default(z.array(id), []),
});
export type LessonData = z.infer<typeof lessonSchema>;

/** Entry ids come from the path: "vi/timeouts/why-timeouts" -> lang "vi", lesson "timeouts/why-timeouts". */
export function splitEntryId(entryId: string): { lang: string; lessonId: string; module: string; slug: string } {
  const [lang = '', module = '', ...rest] = entryId.split('/');
  return { lang, module, slug: rest.join('/'), lessonId: `${module}/${rest.join('/')}` };
}
