/**
 * The grades in the import layouts of the systems schools keep grades in (docs/assignments.md,
 * "Gradebooks for Moodle, Canvas and Google Classroom", which cites each platform's layout): one row
 * per graded learner and one grade column for the assignment, holding the learner's total
 * (learnerGrade: the same number as the gradebook CSV and the report) out of the assignment's points.
 * Learners are identified as each platform matches them: Moodle by ID number or e-mail address,
 * Canvas by SIS User ID or SIS Login ID, Google Classroom by e-mail address, with the given and family
 * names the learner typed (never split from a full name). Rejected files are not in them (they are in
 * the gradebook CSV), nor are learners whose grade is not settled yet (`heldFromLms`): an import would
 * take their number as final. Pure; written with toCsv.
 */
import { possiblePoints, type Learner } from '../assignments/index.ts';
import { gradingFailed, inConflict, learnerGrade, sortLearners, type ClassContext, type LearnerResult } from './results.ts';

export type LmsFormat = 'moodle' | 'canvas' | 'classroom';
export const LMS_FORMATS: readonly LmsFormat[] = ['moodle', 'canvas', 'classroom'];

type Row = Array<string | number>;

/**
 * Moodle's CSV grade import (Grades > Import > CSV file): one column identifies the user ("Identify
 * user by": "ID number" maps to the user's idnumber, "Email address" to the e-mail), the others map to
 * grade items. Columns as Moodle's own export names them; the grade is a plain number.
 */
function moodle(ctx: ClassContext, results: LearnerResult[]): Row[] {
  const title = ctx.assignment.title;
  return [
    ['ID number', 'Email address', 'First name', 'Last name', title],
    ...sortLearners(results).map((r) => [
      r.learner.studentId ?? '',
      r.learner.email,
      r.learner.givenName ?? '',
      r.learner.familyName ?? '',
      learnerGrade(ctx.assignment, r).final,
    ]),
  ];
}

/** Canvas shows and exports a student as "Family, Given"; without both names, the full name as typed. */
const canvasName = (l: Learner) => (l.familyName && l.givenName ? `${l.familyName}, ${l.givenName}` : l.name);

/**
 * Canvas's gradebook import (Grades > Import): the columns Canvas exports first (Student, ID, SIS User
 * ID, SIS Login ID, Section), then one column per assignment, and a "Points Possible" row. Canvas
 * matches a row by ID, SIS User ID or SIS Login ID: the school's student id goes in SIS User ID, the
 * e-mail address in SIS Login ID (what most schools log in with); ID is Canvas's own, unknown here.
 */
function canvas(ctx: ClassContext, results: LearnerResult[]): Row[] {
  return [
    ['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', ctx.assignment.title],
    ['Points Possible', '', '', '', '', possiblePoints(ctx.assignment)],
    ...sortLearners(results).map((r) => [canvasName(r.learner), '', r.learner.studentId ?? '', r.learner.email, '', learnerGrade(ctx.assignment, r).final]),
  ];
}

/**
 * Google Classroom's grade sheet: Last Name, First Name, Email Address, then the coursework, with a
 * "Points" row; students are matched by e-mail address. First and last name are the given and family
 * names the learner typed in the submission, empty when the file has none (never guessed).
 */
function classroom(ctx: ClassContext, results: LearnerResult[]): Row[] {
  return [
    ['Last Name', 'First Name', 'Email Address', ctx.assignment.title],
    ['Points', '', '', possiblePoints(ctx.assignment)],
    ...sortLearners(results).map((r) => [r.learner.familyName ?? '', r.learner.givenName ?? '', r.learner.email, learnerGrade(ctx.assignment, r).final]),
  ];
}

/**
 * Learners the LMS files leave out until the instructor settles them: two files under one e-mail
 * address (two rows for one person, and whichever the LMS reads last would win), or an exercise the
 * grader could not grade (a 0 there is the machine's fault, not the learner's). The gradebook CSV and
 * the report show them, with what to do.
 */
const unsettled = (r: LearnerResult) => inConflict(r) || gradingFailed(r);
export const heldFromLms = (results: LearnerResult[]) => results.filter(unsettled);

export function lmsRows(format: LmsFormat, ctx: ClassContext, results: LearnerResult[]): Row[] {
  const settled = results.filter((r) => !unsettled(r));
  return format === 'moodle' ? moodle(ctx, settled) : format === 'canvas' ? canvas(ctx, settled) : classroom(ctx, settled);
}
