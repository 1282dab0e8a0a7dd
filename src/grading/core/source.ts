// An exercise as the grader needs it, wherever it is stored (files on disk, a page's bundle): the
// bundle, the source that loads bundles, and the file names every run shares.
import type { Exercise } from './exercise-schema.ts';

/** Everything needed to grade one exercise, independent of where it is stored. */
export interface ExerciseBundle {
  exercise: Exercise;
  /** The hidden suite: paths relative to the exercise's tests/ folder. */
  tests: Record<string, string>;
  /** Starter files by declared path (the read-only ones are mounted as they are). */
  starter: Record<string, string>;
  /** The exercise environment's own files (vitest config, reporter, setup, package.json, tsconfig). */
  env: Record<string, string>;
  /**
   * Every test of the suite, in order (exercises/<id>/test-list.json, kept in step by the proof): known
   * before a run, so a test the run never reached counts as failed instead of not counting at all.
   */
  testList?: string[];
}

export interface ExerciseSource {
  ids(): Promise<string[]>;
  load(id: string): Promise<ExerciseBundle | undefined>;
}

/** Environment files mounted at the sandbox root for every run. */
export const ENV_FILES = [
  'package.json',
  'vitest.config.mjs',
  'grader-reporter.mjs',
  'grader-setup.mjs',
  'grader-random.mjs',
  'grader-warm.mjs',
  'tsconfig.json',
  // support shared by the hidden suites: they import it as ../test-support/<file>
  'test-support/scope.ts',
  'test-support/expect.ts',
  'test-support/timers.ts',
] as const;
export const EVENTS_FILE = 'grader-events.jsonl';
export const PROGRESS_FILE = 'grader-progress.jsonl';

/** Where an exercise keeps the list of its tests. */
export const TEST_LIST = 'test-list.json';

/** The names in a test-list.json (a malformed one throws: it is the course's own file). */
export function parseTestList(text: string): string[] {
  const tests = (JSON.parse(text) as { tests?: unknown }).tests;
  if (!Array.isArray(tests) || !tests.every((t) => typeof t === 'string')) throw new Error(`${TEST_LIST} must hold { "tests": [names] }`);
  return tests;
}
