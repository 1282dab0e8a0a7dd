/**
 * The shape of a learner's progress as it is stored in the browser under one key. Ids are the
 * language-independent ones (lesson `<module>/<slug>`, exercise and quiz ids), so switching language
 * keeps progress. Pure: no DOM, no storage. A new version keeps the old schema beside it and
 * migrate.ts upgrades what was stored under it (version 1 → 2: `labs` added, empty).
 */
// zod/mini, not zod: these schemas run in the browser, where full zod would add to every page's
// JavaScript (docs/benchmarks.md#benchpage).
import { z } from 'zod/mini';

export const PROGRESS_KEY = 'course.progress';
/** 2 added `labs`; a version 1 value is upgraded as it is read (migrate.ts), nothing lost. */
export const PROGRESS_VERSION = 2;
/** An assignment link's fragment is a few KB; one past this is not one of ours. */
export const MAX_ASSIGNMENT_FRAGMENT = 32_000;
/** The assignments remembered at most: the oldest opened go first. */
export const MAX_REMEMBERED_ASSIGNMENTS = 50;

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

/** An assignment's id, as assignments/file-schemas.ts defines it (that file builds on this one). */
export const assignmentKey = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, dot, dash, underscore'));

/**
 * An assignment the learner has opened, kept as its link's fragment (`a=…`, decoded by
 * assignments/link.ts), so the page can take them back to it and show it on assigned items.
 */
export const rememberedAssignmentSchema = z.strictObject({
  fragment: z.string().check(z.regex(/^a=[A-Za-z0-9_-]+$/), z.maxLength(MAX_ASSIGNMENT_FRAGMENT)),
  openedAt: isoTime,
});

/** A lab the learner opened (used its controls, or followed a link to it): the first time counts. */
export const labEntrySchema = z.strictObject({ openedAt: isoTime });

/** Version 1, as the site stored it before labs were recorded: read to upgrade it (migrate.ts). */
export const progressSchemaV1 = z.strictObject({
  version: z.literal(1),
  lessons: z.record(lessonId, lessonEntrySchema),
  exercises: z.record(itemId, exerciseEntrySchema),
  quizzes: z.record(itemId, quizEntrySchema),
  lastLesson: z.optional(lastLessonSchema),
  /** When the learner first revealed an exercise's reference solution: a pass after it is not their own. */
  solutionsShown: z.optional(z.record(itemId, isoTime)),
  /** Assignments opened in this browser, by assignment id. */
  assignments: z.optional(z.record(assignmentKey, rememberedAssignmentSchema)),
});

export const progressSchema = z.strictObject({
  ...progressSchemaV1.shape,
  version: z.literal(PROGRESS_VERSION),
  /** Labs opened, by simulation id (the `sim` of `<Lab>`): an assignment's "open the lab" is done from this. */
  labs: z.record(itemId, labEntrySchema),
});

export type Progress = z.infer<typeof progressSchema>;
export type RememberedAssignment = z.infer<typeof rememberedAssignmentSchema>;
export type ProgressV1 = z.infer<typeof progressSchemaV1>;
export type LessonEntry = z.infer<typeof lessonEntrySchema>;
export type LabEntry = z.infer<typeof labEntrySchema>;
export type ExerciseResult = z.infer<typeof exerciseResultSchema>;
export type ExerciseEntry = z.infer<typeof exerciseEntrySchema>;
export type QuizAttempt = z.infer<typeof quizAttemptSchema>;
export type QuizEntry = z.infer<typeof quizEntrySchema>;
export type QuizAnswer = z.infer<typeof answerSchema>;

export function emptyProgress(): Progress {
  return { version: PROGRESS_VERSION, lessons: {}, exercises: {}, quizzes: {}, labs: {} };
}
