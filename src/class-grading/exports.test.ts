// The LMS exports: each system's published column layout, the points per item, e-mail as the key.
import { describe, expect, it } from 'vitest';
import type { Exercise } from '../grading/core/exercise-schema.ts';
import { parseCsv, toCsv } from './csv.ts';
import { lmsRows, type LMS_FORMATS } from './exports.ts';
import type { ClassContext, LearnerResult } from './results.ts';
import { fakeReport, makeAssignment } from './test-fixtures.ts';

const exercise = { id: 'retry-helper', files: [], rules: {} } as unknown as Exercise;
const assignment = makeAssignment({ exercises: ['retry-helper'], quizzes: ['q1'] });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: {} };
const learner = (name: string, email: string, failing: string[] | 'missing', score: number): LearnerResult => ({
  file: `${email}.json`,
  learner: { name, email },
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
  learner('Trần Bình', 'binh@example.com', ['R2'], 1),
  learner('=cmd|x', 'an@example.com', [], 2),
  learner('Chi', 'chi@example.com', 'missing', 0),
];
const csv = (format: (typeof LMS_FORMATS)[number]) => parseCsv(toCsv(lmsRows(format, ctx, results)));

describe('gradebook exports', () => {
  it('Moodle: e-mail address, then one numeric column per grade item', () => {
    expect(csv('moodle')).toEqual([
      ['Email address', 'retry-helper (max 4)', 'q1 (max 2)'],
      ['an@example.com', '4', '2'],
      ['chi@example.com', '0', '0'],
      ['binh@example.com', '3', '1'],
    ]);
  });

  it('Canvas: Student, ID, SIS User ID, SIS Login ID, Section, the assignments, and Points Possible', () => {
    const rows = csv('canvas');
    expect(rows[0]).toEqual(['Student', 'ID', 'SIS User ID', 'SIS Login ID', 'Section', 'retry-helper', 'q1']);
    expect(rows[1]).toEqual(['Points Possible', '', '', '', '', '4', '2']);
    expect(rows[2]).toEqual(["'=cmd|x", '', '', 'an@example.com', '', '4', '2']); // a name never runs as a formula
    expect(rows.find((r) => r[3] === 'binh@example.com')).toEqual(['Trần Bình', '', '', 'binh@example.com', '', '3', '1']);
  });

  it('Google Classroom: Last Name, First Name, Email Address, the coursework, and a Points row', () => {
    const rows = csv('classroom');
    expect(rows[0]).toEqual(['Last Name', 'First Name', 'Email Address', 'retry-helper', 'q1']);
    expect(rows[1]).toEqual(['Points', '', '', '4', '2']);
    expect(rows.slice(2).map((r) => [r[2], r[3], r[4]])).toEqual([
      ['an@example.com', '4', '2'],
      ['chi@example.com', '0', '0'],
      ['binh@example.com', '3', '1'],
    ]);
  });
});
