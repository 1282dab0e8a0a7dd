import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The two files that grade most in the page (each about ten minutes on the CI machine) never run
 * at once: worker-parity starts first, the short files fill the other worker beside it, and
 * worker-runner comes last. Two of them side by side would load both cores with grading, and the
 * suites' real (short) timers would tip on a busy machine. A fresh clone has no timing cache for
 * vitest to order by, so the order is written down.
 */
const FIRST = 'worker-parity.e2e.ts';
const LAST = 'worker-runner.e2e.ts';

class HeavyApart extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    const rank = (f: TestSpecification) => (f.moduleId.endsWith(`/${FIRST}`) ? 0 : f.moduleId.endsWith(`/${LAST}`) ? 2 : 1);
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

// End-to-end tests of the built site (dist/) in headless Chromium, against `astro preview`; the ones built on e2e/engines.ts
// run in Firefox and WebKit too (docs/browsers.md). Two files at a time, one per core: most of a file's
// time is a browser waiting (page loads, suites on real timers), and each file has its own browsers,
// pages and servers on free ports.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // A test that fails runs once more, and `npm test`'s summary names every test that passed only
    // then, with its first error: a real browser on a loaded 2-core machine can miss a suite's short
    // real timer once, and CI should not go red for that, nor hide it. A failure that repeats fails.
    retry: 1,
    fileParallelism: true,
    maxWorkers: 2,
    sequence: { sequencer: HeavyApart },
  },
});
