// Builders for assignments and submissions, shared by the tests of this folder and the benchmark.
import { submissionSchema, type Assignment, type Submission } from '../../assignments/file-schemas.ts';
import type { Report, TestReport } from '../../grading/core/types.ts';
import type { Exercise } from '../../grading/core/exercise-schema.ts';

export function makeAssignment(over: Partial<Assignment> = {}): Assignment {
  return {
    format: 'course-assignment',
    version: 1,
    id: 'asg-test-class',
    title: 'Tuần 3: retry',
    className: 'Backend K12',
    due: '2026-12-01T23:59:00+07:00',
    timeZone: 'Asia/Ho_Chi_Minh',
    modules: ['when-to-retry'],
    exercises: ['retry-helper'],
    quizzes: ['when-to-retry-transient-or-permanent-check'],
    createdAt: '2026-11-20T10:00:00.000Z',
    ...over,
  };
}

export function makeSubmission(
  assignment: Assignment,
  learner: { name: string; email: string },
  exercises: Record<string, Record<string, string>>,
  over: Partial<Submission> = {},
): Submission {
  return submissionSchema.parse({
    format: 'course-submission',
    version: 1,
    assignmentId: assignment.id,
    learner,
    exercises: Object.fromEntries(Object.entries(exercises).map(([id, files]) => [id, { files }])),
    quizzes: {},
    exportedAt: '2026-11-30T01:00:00.000Z',
    courseVersion: '0.1.0',
    // What a browser would claim; grade-class must never believe it.
    clientResults: {
      exercises: Object.fromEntries(
        Object.keys(exercises).map((id) => [id, { status: 'pass', passed: 99, total: 99, runner: 'local', at: '2026-11-30T00:59:00.000Z' }]),
      ),
      quizzes: {},
    },
    ...over,
  });
}

/** A report as the grader makes it: one test per rule, the listed rules failing. */
export function fakeReport(rules: string[], failing: string[] = [], status?: Report['status']): Report {
  const tests: TestReport[] = rules.map((rule) => ({
    rule,
    name: `${rule} checks something`,
    status: failing.includes(rule) ? 'fail' : 'pass',
    message: failing.includes(rule) ? `${rule} broke` : `${rule} holds`,
    hint: '',
    details: '',
    duration: 1,
    output: '',
  }));
  const passed = tests.filter((t) => t.status === 'pass').length;
  return {
    version: 3,
    status: status ?? (failing.length ? 'fail' : 'pass'),
    ...(status === 'error' ? { message: 'retry.ts could not be loaded (line 3, column 1): Unexpected token' } : {}),
    tests: status === 'error' ? [] : tests,
    typeErrors: [],
    counts: status === 'error' ? { passed: 0, failed: 0, total: 0 } : { passed, failed: tests.length - passed, total: tests.length },
    durationMs: 10,
  };
}

/** A retry-helper exercise with the given rules (title, message and hint given per rule or made up). */
export function retryHelperExercise(rules: Record<string, Partial<Exercise['rules'][string]>> | string[]): Exercise {
  const entries = Array.isArray(rules) ? rules.map((r) => [r, {}] as const) : Object.entries(rules);
  return {
    id: 'retry-helper',
    module: 'when-to-retry',
    title: { en: 'Retry helper', vi: 'Trình retry' },
    files: [{ path: 'retry.ts', editable: true }],
    limits: { testTimeoutMs: 2000, runTimeoutMs: 30000 },
    inBrowser: 'worker',
    rules: Object.fromEntries(entries.map(([id, r]) => [id, { title: { en: id, vi: id }, message: { en: 'm', vi: 'm' }, hint: { en: 'h', vi: 'h' }, ...r }])),
  } as Exercise;
}
