import { defineConfig } from 'vitest/config';

// Unit tests live beside the code they test. Hidden exercise suites (exercises/*/tests)
// are not part of this run: they only make sense against a learner's files, inside a sandbox.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    testTimeout: 20_000,
  },
});
