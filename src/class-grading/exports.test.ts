// The LMS exports: each system's published column layout, the learner's identifiers, one total per learner.
import { describe, expect, it } from 'vitest';
import type { Exercise } from '../grading/core/exercise-schema.ts';
import type { Learner } from '../assignments/file-schemas.ts';
import { parseCsv, toCsv } from './csv.ts';
import { heldFromLms, lmsRows, type LMS_FORMATS } from './exports.ts';
import type { ClassContext, LearnerResult } from './results.ts';
import { fakeReport, makeAssignment } from './testing/test-fixtures.ts';

const exercise = { id: 'retry-helper', files: [], rules: {} } as unknown as Exercise;
// 20 points for the exercise, the quiz at the default 10.
const assignment = makeAssignment({ title: 'Week 3', exercises: ['retry-helper'], quizzes: ['q1'], points: { 'retry-helper': 20 } });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: {} };
const learner = (who: Learner, failing: string[] | 'missing', score: number): LearnerResult => ({
  file: `${who.email}.json`,
  learner: who,
  exportedAt: '2026-11-30T01:00:00.000Z',
  late: false,
  exercises: [
    failing === 'missing'
      ? { id: 'retry-helper', status: 'missing' }
      : { id: 'retry-helper', status: 'graded', report: fakeReport(['R1', 'R2', 'R3', 'R4'], failing) },
  ],
  quizzes: [{ id: 'q1', answered: true, score, total: 2 }],
  durationMs: 1,
});
const results = [
  learner({ name: 'Trần Thị Bình', email: 'binh@example.com', givenName: 'Thị Bình', familyName: 'Trần', studentId: 'SV002' }, ['R2'], 1),
  learner({ name: '=cmd|x', email: 'an@example.com' }, [], 2),
  learner({ name: 'Chi', email: 'chi@example.com', studentId: 'SV003' }, 'missing', 0),
];
const csv = (format: (typeof LMS_FORMATS)[number]) => parseCsv(toCsv(lmsRows(format, ctx, results)));

describe('gradebook exports', () => {
  it('Moodle: ID number and e-mail address to identify the user, the names, and the total as one grade item', () => {
    expect(csv('moodle')).toEqual([
      ['ID number', 'Email address', 'First name', 'Last name', 'Week 3'],
      ['', 'an@example.com', '', '', '30'],
      ['SV003', 'chi@example.com', '', '', '0'], // the exercise not handed in: 0 of its 20, the quiz 0 of 10
      ['SV002', 'binh@example.com', 'Thị Bình', 'Trần', '20'], // 20 × 3/4 + 10 × 1/2
    ]);
  });

  it('Canvas: Student, ID, SIS User ID, SIS Login ID, Section, the assignment, and Points Possible', () => {
    const rows = csv('canvas');
    expect(rows[0]).toEqual(['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'Week 3']);
    expect(rows[1]).toEqual(['Points Possible', '', '', '', '', '30']); // every item counted, handed in or not
    expect(rows[2]).toEqual(["'=cmd|x", '', '', 'an@example.com', '', '30']); // a name never runs as a formula
    expect(rows.find((r) => r[3] === 'binh@example.com')).toEqual(['Trần, Thị Bình', '', 'SV002', 'binh@example.com', '', '20']);
  });

  it('Google Classroom: Last Name and First Name as the learner gave them (never guessed), Email Address, a Points row', () => {
    const rows = csv('classroom');
    expect(rows[0]).toEqual(['Last Name', 'First Name', 'Email Address', 'Week 3']);
    expect(rows[1]).toEqual(['Points', '', '', '30']);
    expect(rows.slice(2)).toEqual([
      ['', '', 'an@example.com', '30'],
      ['', '', 'chi@example.com', '0'],
      ['Trần', 'Thị Bình', 'binh@example.com', '20'],
    ]);
  });

  it('leaves out a learner whose grade is not settled: a conflict to decide, or an exercise the grader could not grade', () => {
    const [binh, an, chi] = results as [LearnerResult, LearnerResult, LearnerResult];
    const conflicted = { ...an, conflictsWith: ['an-again.json'] };
    const failed: LearnerResult = { ...chi, exercises: [{ id: 'retry-helper', status: 'grading-failed', message: 'sandbox crashed' }] };
    const mixed = [binh, conflicted, failed];
    expect(heldFromLms(mixed)).toEqual([conflicted, failed]);
    for (const format of ['moodle', 'canvas', 'classroom'] as const) {
      const text = toCsv(lmsRows(format, ctx, mixed));
      expect(text).toContain('binh@example.com');
      expect(text).not.toContain('an@example.com');
      expect(text).not.toContain('chi@example.com');
    }
  });
});
