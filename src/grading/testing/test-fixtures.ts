// Shared fixtures for the grading unit tests: a tiny exercise and builders for the
// JSON lines the reporter and the worker write.
import type { Exercise } from '../core/exercise-schema.ts';
import type { ExerciseBundle, ExerciseSource } from '../core/source.ts';
import type { MapInput } from '../core/map-report.ts';

export const tinyExercise: Exercise = {
  id: 'tiny',
  module: 'basics',
  title: { vi: 'Bài tập nhỏ', en: 'Tiny exercise' },
  files: [
    { path: 'add.ts', editable: true },
    { path: 'types.ts', editable: false },
  ],
  limits: { testTimeoutMs: 500, runTimeoutMs: 5000 },
  inBrowser: 'worker',
  estimateMinutes: 10,
  rules: {
    R1: {
      title: { vi: 'Cộng đúng', en: 'Adds correctly' },
      message: { vi: 'Phép cộng của bạn sai.', en: 'Your sum is wrong.' },
      hint: { vi: 'Dùng toán tử +.', en: 'Use the + operator.' },
    },
    R2: {
      title: { vi: 'Không bị treo', en: 'Does not hang' },
      message: { vi: 'Hàm của bạn bị treo.', en: 'Your function hangs.' },
      hint: { vi: 'Đừng lặp vô hạn.', en: 'Do not loop forever.' },
    },
  },
};

export const tinyBundle: ExerciseBundle = {
  exercise: tinyExercise,
  tests: { 'add.test.ts': "test('R1 adds', () => {});\ntest('R2 ends', () => {});\n" },
  starter: { 'add.ts': 'export const add = () => 0;\n', 'types.ts': 'export type N = number;\n' },
  env: { 'package.json': '{}', 'vitest.config.mjs': 'export default {}', 'grader-reporter.mjs': '', 'grader-setup.mjs': '', 'tsconfig.json': '{}' },
};

export const tinySource: ExerciseSource = {
  ids: async () => ['tiny'],
  load: async (id) => (id === 'tiny' ? tinyBundle : undefined),
};

export const lines = (...events: object[]) => events.map((e) => JSON.stringify(e)).join('\n') + '\n';

export const collected = (file: string, names: string[]) => ({
  type: 'collected',
  file,
  tests: names.map((name, i) => ({ id: `${file}_${i}`, name, ancestors: [] })),
});

export const result = (id: string, state: 'passed' | 'failed', message?: string, duration = 3) => ({
  type: 'result',
  id,
  state,
  duration,
  errors: message ? [{ name: 'AssertionError', message }] : [],
});

export const end = (unhandled: object[] = []) => ({ type: 'end', reason: 'passed', unhandled });

/** What mapReport reads for a clean run of tinyExercise in /tmp/g; a test overrides what it is about. */
export const mapInput = (over: Partial<MapInput>): MapInput => ({
  exercise: tinyExercise,
  lang: 'en',
  events: '',
  progress: '',
  run: { exitCode: 0, output: '', timedOut: false, durationMs: 900 },
  stopped: false,
  typeErrors: [],
  files: ['add.ts', 'types.ts'],
  root: '/tmp/g',
  testTimeoutMs: 500,
  durationMs: 1234.4,
  ...over,
});
