import { describe, expect, test } from 'vitest';
import { importedNames, learnerImports, missingExport } from './learner-imports.ts';

describe('learnerImports', () => {
  test('value names, defaults and renames count; type-only imports do not', () => {
    expect(importedNames('{ a, b as c, type T }')).toEqual(['a', 'b']);
    expect(importedNames('def, { x }')).toEqual(['default', 'x']);
    expect(importedNames('* as ns')).toEqual([]);
  });

  test('each test file needs what it imports from the learner, directly or through the suite helpers', () => {
    const needs = learnerImports({
      'helpers.ts': "import { RetryError } from '../src/retry.ts';\nimport type { Budget } from '../src/retry.ts';\n",
      '1-a.test.ts':
        "import { describe } from 'vitest';\nimport { fetchWithRetry, type Options } from '../src/retry.ts';\nimport { clock } from './helpers.ts';\n",
      '2-b.test.ts': "import {\n  fullJitterDelay,\n} from '../src/retry.ts';\n",
    });
    expect(needs).toEqual({
      '1-a.test.ts': { 'retry.ts': ['fetchWithRetry', 'RetryError'] },
      '2-b.test.ts': { 'retry.ts': ['fullJitterDelay'] },
    });
  });

  test("a suite module imported for its tests alone (`import './x.ts'`) passes on what it needs", () => {
    const needs = learnerImports({
      'services.ts': "import { startA } from '../src/a.ts';\n",
      '1-chain.ts': "import { describe } from 'vitest';\nimport { startA } from './services.ts';\n",
      'service-chain.test.ts': 'import \'./1-chain.ts\';\nimport "./2-none.ts";\n',
      '2-none.ts': "import { expect } from 'vitest';\n",
    });
    expect(needs).toEqual({ 'service-chain.test.ts': { 'a.ts': ['startA'] } });
  });

  test("a missing export gets Node's own message; a complete module passes", () => {
    const needs = { 'retry.ts': ['fetchWithRetry', 'RetryError'] };
    expect(missingExport(needs, { 'retry.ts': { fetchWithRetry: () => 0, RetryError: class {} } })).toBeUndefined();
    expect(missingExport(needs, { 'retry.ts': { fetchWithRetry: () => 0 } })).toBe(
      "The requested module '../src/retry.ts' does not provide an export named 'RetryError'",
    );
  });
});
