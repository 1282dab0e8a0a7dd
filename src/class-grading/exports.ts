/**
 * The grades in the import layouts of the systems schools keep grades in (see docs/assignments.md,
 * "Gradebooks for Moodle, Canvas and Google Classroom"): one row per graded learner, one column per
 * exercise and quiz with the points earned (tests passed, right answers), matched by e-mail address.
 * Rejected files are not in them (they are in the gradebook CSV). Pure; written with toCsv.
 */
import { exerciseScore, sortLearners, testTotals, type ClassContext, type LearnerResult } from './results.ts';

export type LmsFormat = 'moodle' | 'canvas' | 'classroom';
export const LMS_FORMATS: readonly LmsFormat[] = ['moodle', 'canvas', 'classroom'];

interface Item {
  /** The column title: the item's id, as the instructor's page shows it. */
  title: string;
  max: number;
  points(r: LearnerResult): number;
}

function items(ctx: ClassContext, results: LearnerResult[]): Item[] {
  const totals = testTotals(results);
  const exercises: Item[] = ctx.assignment.exercises.map((id) => ({
    title: id,
    max: totals[id] ?? 0,
    points: (r) => exerciseScore(r.exercises.find((e) => e.id === id)!)?.passed ?? 0,
  }));
  const quizzes: Item[] = ctx.assignment.quizzes.map((id) => ({
    title: id,
    max: Math.max(0, ...results.map((r) => r.quizzes.find((q) => q.id === id)?.total ?? 0)) || (ctx.quizzes[id]?.questions.length ?? 0),
    points: (r) => r.quizzes.find((q) => q.id === id)?.score ?? 0,
  }));
  return [...exercises, ...quizzes];
}

/**
 * Moodle's CSV grade import (Grades > Import > CSV file): a column that identifies the user, mapped
 * with "Identify user by: Email address", and one column per grade item, each mapped to an existing
 * item or to a new one. Grades are plain numbers.
 */
function moodle(ctx: ClassContext, results: LearnerResult[]): Array<Array<string | number>> {
  const cols = items(ctx, results);
  return [
    ['Email address', ...cols.map((c) => `${c.title} (max ${c.max})`)],
    ...sortLearners(results).map((r) => [r.learner.email, ...cols.map((c) => c.points(r))]),
  ];
}

/**
 * Canvas's gradebook import (Grades > Import): the columns Canvas itself exports first (Student, ID,
 * SIS User ID, SIS Login ID, Section), then one column per assignment; the row under the header is
 * "Points Possible". Canvas matches a row by ID, SIS User ID or SIS Login ID: the e-mail address is
 * given as SIS Login ID (what most schools log in with); ID and SIS User ID are left for Canvas.
 */
function canvas(ctx: ClassContext, results: LearnerResult[]): Array<Array<string | number>> {
  const cols = items(ctx, results);
  return [
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', ...cols.map((c) => c.title)],
    ['Points Possible', '', '', '', '', ...cols.map((c) => c.max)],
    ...sortLearners(results).map((r) => [r.learner.name, '', '', r.learner.email, '', ...cols.map((c) => c.points(r))]),
  ];
}

/**
 * Google Classroom: a grade per student and coursework is a decimal draftGrade/assignedGrade out of the
 * coursework's maxPoints, students known by e-mail address. No CSV import layout is published for its
 * gradebook, so this is a sheet for an add-on or a script over the API: names, Email Address, one column
 * per coursework, a "Points" row with maxPoints. The full name goes in Last Name (a Vietnamese full name
 * does not split reliably).
 */
function classroom(ctx: ClassContext, results: LearnerResult[]): Array<Array<string | number>> {
  const cols = items(ctx, results);
  return [
    ['Last Name', 'First Name', 'Email Address', ...cols.map((c) => c.title)],
    ['Points', '', '', ...cols.map((c) => c.max)],
    ...sortLearners(results).map((r) => [r.learner.name, '', r.learner.email, ...cols.map((c) => c.points(r))]),
  ];
}

export function lmsRows(format: LmsFormat, ctx: ClassContext, results: LearnerResult[]): Array<Array<string | number>> {
  return format === 'moodle' ? moodle(ctx, results) : format === 'canvas' ? canvas(ctx, results) : classroom(ctx, results);
}
