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
] as const;
export const EVENTS_FILE = 'grader-events.jsonl';
export const PROGRESS_FILE = 'grader-progress.jsonl';
