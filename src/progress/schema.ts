/**
 * The shape of a learner's progress as it is stored in the browser under one key. Ids are the
 * language-independent ones (lesson `<module>/<slug>`, exercise and quiz ids), so switching language
 * keeps progress. Pure: no DOM, no storage.
 */
// zod/mini, not zod: these schemas run in the browser, where full zod would add ~25 KB gzip to every page.
import { z } from 'zod/mini';

export const PROGRESS_KEY = 'course.progress';
export const PROGRESS_VERSION = 1;

const slug = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const itemId = z.string().check(z.regex(slug));
export const lessonId = z.string().check(z.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*\/[a-z0-9]+(?:-[a-z0-9]+)*$/));
export const isoTime = z.iso.datetime({ offset: true });

/** A quiz answer, the same shape as src/quiz/grade.ts `Answer`. */
export const answerSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('single'), choice: z.nullable(z.string()) }),
  z.strictObject({ type: z.literal('multiple'), choices: z.array(z.string()) }),
  z.strictObject({ type: z.literal('numeric'), value: z.string() }),
  z.strictObject({ type: z.literal('order'), items: z.array(z.string()) }),
]);
export const answersSchema = z.record(z.string(), answerSchema);

/** `read: false` records an explicit "not done", so reaching the end of the page does not re-mark it. */
export const lessonEntrySchema = z.strictObject({ read: z.boolean(), at: isoTime, by: z.enum(['button', 'scroll']) });

const count = z.number().check(z.int(), z.minimum(0));
const atLeastOne = z.number().check(z.int(), z.minimum(1));
export const exerciseResultSchema = z
  .strictObject({
    status: z.enum(['pass', 'fail', 'error']),
    passed: count,
    total: count,
    runner: z.enum(['webcontainer', 'worker', 'local']),
    at: isoTime,
  })
  .check(z.refine((r) => r.passed <= r.total, { message: 'passed cannot exceed total' }));

export const exerciseEntrySchema = z.strictObject({
  attempts: atLeastOne,
  passed: z.boolean(),
  best: exerciseResultSchema,
  last: exerciseResultSchema,
});

export const quizAttemptSchema = z
  .strictObject({ score: count, total: atLeastOne, answers: answersSchema, at: isoTime })
  .check(z.refine((a) => a.score <= a.total, { message: 'score cannot exceed total' }));

export const quizEntrySchema = z.strictObject({
  attempts: atLeastOne,
  best: quizAttemptSchema,
  last: quizAttemptSchema,
});

export const lastLessonSchema = z.strictObject({ lessonId, at: isoTime });

export const progressSchema = z.strictObject({
  version: z.literal(PROGRESS_VERSION),
  lessons: z.record(lessonId, lessonEntrySchema),
  exercises: z.record(itemId, exerciseEntrySchema),
  quizzes: z.record(itemId, quizEntrySchema),
  lastLesson: z.optional(lastLessonSchema),
  /** When the learner first revealed an exercise's reference solution: a pass after it is not their own. */
  solutionsShown: z.optional(z.record(itemId, isoTime)),
});

export type Progress = z.infer<typeof progressSchema>;
export type LessonEntry = z.infer<typeof lessonEntrySchema>;
export type ExerciseResult = z.infer<typeof exerciseResultSchema>;
export type ExerciseEntry = z.infer<typeof exerciseEntrySchema>;
export type QuizAttempt = z.infer<typeof quizAttemptSchema>;
export type QuizEntry = z.infer<typeof quizEntrySchema>;
export type QuizAnswer = z.infer<typeof answerSchema>;

export function emptyProgress(): Progress {
  return { version: PROGRESS_VERSION, lessons: {}, exercises: {}, quizzes: {} };
}
