// The one config every graded run uses, on the command line and in a WebContainer.
// The grader copies this file into the sandbox root beside src/ (learner files) and tests/ (hidden suite).
import { defineConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';

/**
 * Test files run in name order (1-…, 2-…, 3-…), on every run. vitest's default puts files that
 * failed last time first, then the longest or largest: a warm re-grade would then shuffle the
 * report and start with whatever broke before.
 */
class NameOrder extends BaseSequencer {
  async sort(files) {
    return [...files].sort((a, b) => (a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0));
  }
}

const positiveInt = (value, fallback) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : fallback;
};

const testTimeout = positiveInt(process.env.GRADER_TEST_TIMEOUT_MS, 2000);

export default defineConfig({
  // Inside the sandbox, never in a learner's or the repository's folders.
  cacheDir: '.vite-cache',
  test: {
    include: ['tests/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    // One worker process for all test files: a fresh fork per file costs more than the whole suite.
    isolate: false,
    testTimeout,
    // Suites that wait on real timers mark their tests concurrent; let a whole rule's tests overlap.
    maxConcurrency: 16,
    hookTimeout: testTimeout,
    teardownTimeout: 1000,
    printConsoleTrace: false,
    watch: false,
    passWithNoTests: false,
    globals: false,
    sequence: { sequencer: NameOrder },
    // grader-setup.mjs records each test's start and end from inside the worker (so a blocked
    // worker still tells which test hung); grader-reporter.mjs writes results, logs and errors.
    setupFiles: ['./grader-setup.mjs'],
    reporters: ['./grader-reporter.mjs'],
  },
});
