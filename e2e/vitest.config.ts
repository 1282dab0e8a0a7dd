import { defineConfig } from 'vitest/config';

// End-to-end tests of the built site (dist/) in headless Chromium, against `astro preview`.
export default defineConfig({
  test: {
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    fileParallelism: false,
  },
});
