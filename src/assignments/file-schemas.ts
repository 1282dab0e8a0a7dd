/**
 * The two files that travel between instructor and learners, and their schemas: an assignment
 * (built on the instructor page, shared as a link or a file) and a submission (exported by a learner,
 * graded by `grade-class`). Pure: zod only, no DOM, so the command line can import it.
 * zod/mini, not zod: the instructor and assignment pages run these schemas in the browser.
 */
import { z } from 'zod/mini';
import { answersSchema, isoTime, itemId } from '../progress/schema.ts';

export const ASSIGNMENT_FORMAT = 'course-assignment';
export const SUBMISSION_FORMAT = 'course-submission';
export const FORMAT_VERSION = 1;
/** grade-class rejects a bigger submission; the browser warns before exporting one. */
export const MAX_SUBMISSION_BYTES = 1_000_000;

/** A relative file name inside an exercise: no `..`, no leading `/` or dot segment, no backslash. */
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const submissionFileName = z.string().check(
  z.minLength(1),
  z.maxLength(200),
  z.refine((p) => p.split('/').every((seg) => SEGMENT.test(seg) && seg !== '..'), { message: 'not a safe relative file name' }),
);

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const assignmentId = z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'letters, digits, dot, dash, underscore'));
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const uniqueIds = z.array(itemId).check(
  z.maxLength(100),
  z.refine((ids) => new Set(ids).size === ids.length, { message: 'ids must be unique' }),
);
const count = (min: number) => z.number().check(z.int(), z.minimum(min));

export const assignmentSchema = z
  .strictObject({
    format: z.literal(ASSIGNMENT_FORMAT),
    version: z.literal(FORMAT_VERSION),
    id: assignmentId,
    title: text(200),
    className: text(200),
    /** ISO 8601 with the offset of `timeZone` at that moment, e.g. 2026-12-01T23:59:00+07:00. */
    due: isoTime,
    /** The instructor's IANA time zone, so learners can also see the deadline as the instructor does. */
    timeZone: z.string().check(z.refine(isTimeZone, { message: 'not an IANA time zone' })),
    /** The modules the instructor picked (for information: the items below are what counts). */
    modules: uniqueIds,
    exercises: uniqueIds,
    quizzes: uniqueIds,
    createdAt: isoTime,
  })
  .check(z.refine((a) => a.exercises.length + a.quizzes.length > 0, { message: 'an assignment needs at least one exercise or quiz', path: ['exercises'] }));
export type Assignment = z.infer<typeof assignmentSchema>;

export const learnerSchema = z.strictObject({
  name: text(200),
  email: z.email().check(z.maxLength(254)),
});
export type Learner = z.infer<typeof learnerSchema>;

const clientExerciseResult = z.strictObject({
  status: z.enum(['pass', 'fail', 'error']),
  passed: count(0),
  total: count(0),
  runner: z.enum(['webcontainer', 'worker', 'local']),
  at: isoTime,
});
const clientQuizResult = z.strictObject({ score: count(0), total: count(1), at: isoTime });

export const submissionSchema = z.strictObject({
  format: z.literal(SUBMISSION_FORMAT),
  version: z.literal(FORMAT_VERSION),
  assignmentId,
  learner: learnerSchema,
  exercises: z.record(itemId, z.strictObject({ files: z.record(submissionFileName, z.string()) })),
  quizzes: z.record(itemId, z.strictObject({ answers: answersSchema })),
  exportedAt: isoTime,
  /** The site's version when the learner exported: tells the instructor which exercise texts they saw. */
  courseVersion: z.string().check(z.minLength(1), z.maxLength(100)),
  /** Exercises whose reference solution the learner revealed in the browser (absent in older files). */
  solutionShown: z.optional(uniqueIds),
  /** What the browser measured. For information only: grade-class re-grades everything. */
  clientResults: z.strictObject({
    exercises: z.record(itemId, clientExerciseResult),
    quizzes: z.record(itemId, clientQuizResult),
  }),
});
export type Submission = z.infer<typeof submissionSchema>;
