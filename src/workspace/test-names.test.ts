/**
 * The Vietnamese names of the hidden tests (exercises/<id>/test-names.vi.json, beside the rule
 * messages) stay in step with the suites: every name translated is a test of the suite, every test
 * with a fixed name has a translation, and each keeps its rule id and reads as Vietnamese.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasVietnameseDiacritics } from '../i18n/langs.ts';

const TEST_CALL = /\b(?:test|it)(?:\.(?:each|concurrent|skip|only)(?:\([^)]*\))?)?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;

/** The names the suite gives its tests in its source, as vitest reports them; templated ones are left out. */
function suiteNames(id: string): string[] {
  const dir = `exercises/${id}/tests`;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.test.ts'))
    .flatMap((f) => [...readFileSync(`${dir}/${f}`, 'utf8').matchAll(TEST_CALL)].map((m) => m[2]!.replace(/\\(.)/g, '$1')))
    .filter((name) => !/%[sdijfo#]|\$\{/.test(name));
}

const exercises = readdirSync('exercises').filter((id) => existsSync(`exercises/${id}/exercise.json`));

describe('Vietnamese test names', () => {
  it('exist for every exercise', () => {
    expect(exercises.filter((id) => !existsSync(`exercises/${id}/test-names.vi.json`))).toEqual([]);
  });

  it.each(exercises)('%s: one per test of the suite, none for a test that is gone, each with its rule id, in Vietnamese', (id) => {
    const names = JSON.parse(readFileSync(`exercises/${id}/test-names.vi.json`, 'utf8')) as Record<string, string>;
    const suite = suiteNames(id);
    expect(
      Object.keys(names).filter((n) => !suite.includes(n)),
      'translated names no test has',
    ).toEqual([]);
    expect(
      suite.filter((n) => !(n in names)),
      'tests without a Vietnamese name',
    ).toEqual([]);
    for (const [en, vi] of Object.entries(names)) {
      expect(vi.split(' ')[0], en).toBe(en.split(' ')[0]);
      expect(hasVietnameseDiacritics(vi), vi).toBe(true);
    }
  });
});
