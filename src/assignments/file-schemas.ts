/**
 * The two files that travel between instructor and learners, and their schemas: an assignment
 * (built on the instructor page, shared as a link or a file) and a submission (exported by a learner,
 * graded by `grade-class`). Pure: zod only, no DOM, so the command line can import it.
 * zod/mini, not zod: the instructor and assignment pages run these schemas in the browser.
 */
import { z } from 'zod/mini';
import { answersSchema, assignmentKey, isoTime, itemId, lessonId } from '../progress/schema.ts';

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

export const assignmentId = assignmentKey;
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const uniqueIds = z.array(itemId).check(
  z.maxLength(100),
  z.refine((ids) => new Set(ids).size === ids.length, { message: 'ids must be unique' }),
);
const count = (min: number) => z.number().check(z.int(), z.minimum(min));
const percent = z.number().check(z.minimum(0), z.maximum(100));

/**
 * Points per item (exercise or quiz id). An item left out is worth DEFAULT_ITEM_POINTS; an item's
 * points are possible whether or not the learner hands it in. See src/assignments/grading-model.ts.
 */
export const pointsSchema = z.record(itemId, z.number().check(z.positive(), z.maximum(1000)));

/**
 * What happens to work exported after `due` (src/assignments/late-policy.ts): nothing during the
 * grace period; then `penaltyPercent` of the earned points off per started `per` (hour or day),
 * never more than down to `floorPercent` of them; past `cutoff`, not accepted (0 points).
 */
export const latePolicySchema = z.strictObject({
  graceMinutes: z.number().check(z.int(), z.minimum(0), z.maximum(60 * 24 * 30)),
  penaltyPercent: percent,
  per: z.enum(['hour', 'day']),
  floorPercent: percent,
  cutoff: z.optional(isoTime),
});
export type LatePolicy = z.infer<typeof latePolicySchema>;

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
    /**
     * Lessons to read (`<module>/<slug>`): shown on the learner's page as read or not from their
     * progress; not graded, worth no points (absent in older files).
     */
    lessons: z.optional(
      z.array(lessonId).check(
        z.maxLength(200),
        z.refine((ids) => new Set(ids).size === ids.length, { message: 'ids must be unique' }),
      ),
    ),
    /**
     * Labs to open (simulation ids, the `sim` of a lesson's `<Lab>`): shown on the learner's page as
     * opened or not from their progress; like lessons, not graded, worth no points (absent in older files).
     */
    labs: z.optional(uniqueIds),
    /** Points per item (absent: every item is worth DEFAULT_ITEM_POINTS). */
    points: z.optional(pointsSchema),
    /** Absent: work exported after `due` is marked late and loses nothing. */
    latePolicy: z.optional(latePolicySchema),
  })
  .check(
    z.refine((a) => a.exercises.length + a.quizzes.length + (a.lessons?.length ?? 0) + (a.labs?.length ?? 0) > 0, {
      message: 'an assignment needs at least one exercise, quiz, lesson or lab',
      path: ['exercises'],
    }),
    z.refine((a) => Object.keys(a.points ?? {}).every((id) => a.exercises.includes(id) || a.quizzes.includes(id)), {
      message: 'points are given for an item the assignment does not have',
      path: ['points'],
    }),
    z.refine((a) => a.latePolicy?.cutoff === undefined || Date.parse(a.latePolicy.cutoff) >= Date.parse(a.due), {
      message: 'the cut-off comes before the due date',
      path: ['latePolicy', 'cutoff'],
    }),
  );
export type Assignment = z.infer<typeof assignmentSchema>;

export const learnerSchema = z.strictObject({
  name: text(200),
  email: z.email().check(z.maxLength(254)),
  /**
   * Given and family name as the learner typed them (Google Classroom's First Name / Last Name): a
   * full name does not split reliably (a Vietnamese one puts the family name first). Absent in older files.
   */
  givenName: z.optional(text(100)),
  familyName: z.optional(text(100)),
  /** The school's id of the learner (Moodle's ID number, Canvas's SIS User ID), when the class uses one. */
  studentId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(64))),
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
  /** The language of the page the learner exported from: their feedback is written in it (absent in older files). */
  lang: z.optional(z.enum(['vi', 'en'])),
  /** Exercises whose reference solution the learner revealed in the browser (absent in older files). */
  solutionShown: z.optional(uniqueIds),
  /** What the browser measured. For information only: grade-class re-grades everything. */
  clientResults: z.strictObject({
    exercises: z.record(itemId, clientExerciseResult),
    quizzes: z.record(itemId, clientQuizResult),
  }),
});
export type Submission = z.infer<typeof submissionSchema>;
