import { z } from 'zod';
import { bilingual, langSchema } from '../i18n/langs.ts';

const id = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'ids are lower-case words joined by hyphens');

export const moduleSchema = z.strictObject({
  id,
  order: z.number().int().positive(),
  title: bilingual,
  summary: bilingual,
});
export type CourseModule = z.infer<typeof moduleSchema>;

/**
 * Front matter of a lesson file, content/lessons/<lang>/<module>/<slug>.mdx.
 * The two language files of a lesson share <module>/<slug>, which is the lesson's id.
 */
export const lessonSchema = z.strictObject({
  title: z.string().min(3),
  description: z.string().min(20),
  module: id,
  order: z.number().int().positive(),
  lang: langSchema,
  minutes: z.number().int().min(1).max(60),
  exercises: z.array(id).default([]),
  quizzes: z.array(id).default([]),
  labs: z.array(id).default([]),
});
export type LessonData = z.infer<typeof lessonSchema>;

/** Entry ids come from the path: "vi/timeouts/why-timeouts" -> lang "vi", lesson "timeouts/why-timeouts". */
export function splitEntryId(entryId: string): { lang: string; lessonId: string; module: string; slug: string } {
  const [lang = '', module = '', ...rest] = entryId.split('/');
  return { lang, module, slug: rest.join('/'), lessonId: `${module}/${rest.join('/')}` };
}
