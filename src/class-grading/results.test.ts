import { describe, expect, it } from 'vitest';
import type { Exercise } from '../grading/core/exercise-schema.ts';
import type { QuizData } from '../quiz/schema.ts';
import { gradebookRows, isSubmissionLate, learnerGrade, ruleFailureCounts, scoreQuizzes, type ClassContext, type LearnerResult } from './results.ts';
import { fakeReport, makeAssignment, makeSubmission } from './testing/test-fixtures.ts';

const RULES = ['R1', 'R2', 'R10', 'R3'];
const text = (en: string) => ({ en, vi: `${en} (tiếng Việt)` });
const exercise = {
  id: 'retry-helper',
  module: 'when-to-retry',
  title: text('Retry helper'),
  files: [{ path: 'retry.ts', editable: true }],
  limits: { testTimeoutMs: 2000, runTimeoutMs: 30000 },
  inBrowser: 'worker',
  rules: Object.fromEntries(RULES.map((r) => [r, { title: text(`title of ${r}`), message: text('m'), hint: text('h') }])),
} as Exercise;
const quiz = {
  module: 'when-to-retry',
  title: text('Quiz'),
  questions: [
    {
      id: 'q1',
      type: 'single',
      prompt: text('?'),
      choices: [
        { id: 'a', text: text('a'), correct: true, explanation: text('e') },
        { id: 'b', text: text('b'), correct: false, explanation: text('e') },
      ],
    },
    { id: 'q2', type: 'numeric', prompt: text('?'), answer: 3, tolerance: 0, explanation: text('e') },
  ],
} as QuizData;
const assignment = makeAssignment({ quizzes: ['q-check'] });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: { 'q-check': quiz } };

const learner = (name: string, email: string, over: Partial<LearnerResult>): LearnerResult => ({
  file: `${email}.json`,
  learner: { name, email },
  exportedAt: '2026-11-30T01:00:00.000Z',
  late: false,
  exercises: [],
  quizzes: [{ id: 'q-check', answered: true, score: 2, total: 2 }],
  durationMs: 1000,
  ...over,
});

const ref = learner('An', 'an@example.com', { exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(RULES) }] });
const buggy = learner('Bình', 'binh@example.com', {
  late: true,
  exportedAt: '2026-12-02T01:00:00.000Z', // 08:00 in Ho Chi Minh City, the morning after the due date
  exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(RULES, ['R10']) }],
  quizzes: [{ id: 'q-check', answered: true, score: 1, total: 2 }],
});
const broken = learner('Cường', 'cuong@example.com', { exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(RULES, [], 'error') }] });
const absent = learner('Dũng', 'dung@example.com', {
  exercises: [{ id: 'retry-helper', status: 'missing' }],
  quizzes: [{ id: 'q-check', answered: false, score: 0, total: 2 }],
});

describe('class results', () => {
  it('scores quizzes from the answers in the file, never from the browser’s claim', () => {
    const s = makeSubmission(
      assignment,
      { name: 'An', email: 'an@example.com' },
      {},
      {
        quizzes: { 'q-check': { answers: { q1: { type: 'single', choice: 'a' }, q2: { type: 'numeric', value: '4' } } } },
        clientResults: { exercises: {}, quizzes: { 'q-check': { score: 2, total: 2, at: '2026-11-30T00:00:00.000Z' } } },
      },
    );
    expect(scoreQuizzes(s, ctx)).toEqual([{ id: 'q-check', answered: true, score: 1, total: 2 }]);
    const none = makeSubmission(assignment, { name: 'An', email: 'an@example.com' }, {});
    expect(scoreQuizzes(none, ctx)).toEqual([{ id: 'q-check', answered: false, score: 0, total: 2 }]);
  });

  it('is late only when exported after the due instant', () => {
    const at = (exportedAt: string) => isSubmissionLate(makeSubmission(assignment, { name: 'A', email: 'a@b.co' }, {}, { exportedAt }), assignment);
    expect(at('2026-12-01T16:59:00.000Z')).toBe(false); // 23:59 in Ho Chi Minh City
    expect(at('2026-12-01T17:00:00.000Z')).toBe(true);
  });

  it('gives each item its points (10 by default), missing items 0 of theirs', () => {
    const total = (r: LearnerResult, a = assignment) => {
      const g = learnerGrade(a, r);
      return [g.final, g.possible, g.percent];
    };
    expect(total(ref)).toEqual([20, 20, 100]);
    expect(total(buggy)).toEqual([12.5, 20, 62.5]); // 10 × 3/4 + 10 × 1/2; late, and no late policy
    expect(total(broken)).toEqual([10, 20, 50]);
    expect(total(absent)).toEqual([0, 20, 0]);
    const weighted = makeAssignment({ quizzes: ['q-check'], points: { 'retry-helper': 30, 'q-check': 5 } });
    expect(total(buggy, weighted)).toEqual([25, 35, 71.4]); // 30 × 3/4 + 5 × 1/2
    expect(total(absent, weighted)).toEqual([0, 35, 0]);
  });

  it('makes one gradebook row per learner, sorted by name, then the rejected files', () => {
    const rows = gradebookRows(ctx, [buggy, absent, ref, broken], [{ file: 'bad.json', reason: { key: 'reject.notJson', params: { position: 7 } } }], 'en');
    expect(rows[0]).toEqual([
      'Name',
      'E-mail',
      'File',
      'Status',
      'retry-helper (tests passed)',
      'retry-helper (broken rules)',
      'q-check (score)',
      'Earned (of 20)',
      'Total (of 20)',
      'Total (%)',
      'Handed in',
      'Late policy',
      'Exported at (Asia/Ho_Chi_Minh)',
      'Solution shown',
      'Problems',
    ]);
    expect(rows.slice(1).map((r) => r[0])).toEqual(['An', 'Bình', 'Cường', 'Dũng', '']);
    expect(rows[1]).toEqual([
      'An',
      'an@example.com',
      'an@example.com.json',
      'graded',
      '4/4',
      '',
      '2/2',
      '20',
      '20',
      '100.0',
      'on time',
      '',
      '2026-11-30T08:00:00+07:00',
      '',
      '',
    ]);
    expect(rows[2]!.slice(4, 11)).toEqual(['3/4', 'R10', '1/2', '12.5', '12.5', '62.5', 'late']);
    expect(rows[2]![11]).toMatch(/^Exported .*08:00 \(Asia\/Ho_Chi_Minh\), 8 h 1 min after the due date .*no late policy/);
    expect(rows[3]![14]).toContain('retry-helper: retry.ts could not be loaded');
    expect(rows[4]!.slice(4, 7)).toEqual(['0/4', '', '0/2']);
    expect(rows[4]![14]).toBe('retry-helper: not handed in; q-check: not answered');
    expect(rows[5]).toEqual(['', '', 'bad.json', 'rejected', ...Array(10).fill(''), 'not valid JSON (the first error is near character 7)']);
    // Its own column: the exercises whose solution the learner revealed, in their own words.
    const helped = { ...ref, solutionShown: ['retry-helper'] };
    expect(gradebookRows(ctx, [helped], [], 'en')[1]![13]).toBe('retry-helper');
    expect(gradebookRows(ctx, [helped], [], 'vi')[0]![13]).toBe('Đã xem lời giải');
    expect(rows.every((r) => r.length === rows[0]!.length)).toBe(true);
    // Nobody handed the exercise in: the cell says so instead of "0/?".
    expect(gradebookRows(ctx, [absent], [], 'en')[1]!.slice(4, 6)).toEqual(['not handed in', '']);
    expect(gradebookRows(ctx, [absent], [], 'vi')[1]![4]).toBe('chưa nộp');
    const vi = gradebookRows(ctx, [buggy], [], 'vi');
    expect(vi[0]![0]).toBe('Họ tên');
    expect(vi[1]![10]).toBe('trễ hạn');
  });

  it('counts, per rule, the learners whose finished run breaks it', () => {
    const [counts] = ruleFailureCounts(ctx, [
      ref,
      buggy,
      broken,
      absent,
      learner('E', 'e@x.co', { exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(RULES, ['R1', 'R10']) }] }),
    ]);
    expect(counts).toEqual({
      id: 'retry-helper',
      graded: 3,
      incomplete: 1,
      rules: [
        { rule: 'R1', failing: 1 },
        { rule: 'R2', failing: 0 },
        { rule: 'R3', failing: 0 },
        { rule: 'R10', failing: 2 },
      ],
    });
  });
});
