// The generated stand-in for a learner's file: it exports what the tests import and the starter exports.
import { describe, expect, it } from 'vitest';
import { exportNames, strictProxySource } from './strict-proxy.ts';

describe('strict grading stand-in modules', () => {
  it('exports the names the tests import from ../src/<file> and the starter exports, never types', () => {
    const tests = {
      '1-a.test.ts': "import { fetchWithRetry, RetryError, type RetryOptions } from '../../src/retry.ts';\nimport { other } from '../../src/other.ts';",
      'helpers.ts': "import type { RetryBudget } from '../../src/retry.ts';\nimport { tokenBucketBudget as bucket } from '../../src/retry.ts';",
    };
    const starter =
      'export class RetryError extends Error {}\nexport interface RetryBudget {}\nexport async function fetchWithRetry() {}\nexport const LIMIT = 3;\nexport type X = 1;';
    expect(exportNames('retry.ts', tests, starter)).toEqual(['LIMIT', 'RetryError', 'fetchWithRetry', 'tokenBucketBudget']);
  });

  it('loads the learner module once and re-exports each name through the client', () => {
    const src = strictProxySource('retry.ts', ['fetchWithRetry', 'RetryError', 'not-an-identifier'], '/w/strict/client.mjs');
    expect(src).toContain('import { learnerModule } from "/w/strict/client.mjs";');
    expect(src).toContain('const __m = await learnerModule("retry.ts", __learnerCall);');
    expect(src).toContain('export const fetchWithRetry = __m["fetchWithRetry"];');
    expect(src).toContain('export const RetryError = __m["RetryError"];');
    expect(src).not.toContain('not-an-identifier');
  });
});
