/**
 * The Vietnamese names of the hidden tests (exercises/<id>/test-names.vi.json, beside the rule
 * messages) stay in step with the suites: every name translated is a test of the suite, every test
 * has a translation (a parameterized one by its template, with the same placeholders), each keeps
 * its rule id and reads as Vietnamese, and every translated parameter value (`=…`) is one a case of
 * the suite gives.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasVietnameseDiacritics } from '../i18n/langs.ts';
import { placeholders } from './test-names.ts';

/** test(…), it(…), test.concurrent.for(cases)(…) and the like, up to the name's string. */
const TEST_CALL = /\b(?:test|it)(?:\.(?:each|for|concurrent|sequential|skip|only|fails)(?:\([^)]*\))?)*\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;

const suiteSources = (id: string) =>
  readdirSync(`exercises/${id}/tests`)
    .filter((f) => f.endsWith('.ts')) // test files, and the modules a test file imports for their tests (service-chain's)
    .map((f) => readFileSync(`exercises/${id}/tests/${f}`, 'utf8'));

/** The names the suite gives its tests in its source, parameterized ones as their templates. */
function suiteNames(id: string): string[] {
  return suiteSources(id)
    .flatMap((source) => [...source.matchAll(TEST_CALL)].map((m) => m[2]!.replace(/\\(.)/g, '$1')))
    .filter((name) => !/\$\{/.test(name)); // a name built at run time cannot be listed
}

const exercises = readdirSync('exercises').filter((id) => existsSync(`exercises/${id}/exercise.json`));

describe('Vietnamese test names', () => {
  it('exist for every exercise', () => {
    expect(exercises.filter((id) => !existsSync(`exercises/${id}/test-names.vi.json`))).toEqual([]);
  });

  it.each(exercises)('%s: one per test of the suite, none for a test that is gone, each with its rule id, in Vietnamese', (id) => {
    const all = JSON.parse(readFileSync(`exercises/${id}/test-names.vi.json`, 'utf8')) as Record<string, string>;
    const names = Object.fromEntries(Object.entries(all).filter(([en]) => !en.startsWith('=')));
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
      expect(placeholders(vi), `${vi}: the placeholders of "${en}", in order`).toEqual(placeholders(en));
    }
    const sources = suiteSources(id).join('\n');
    for (const [value, vi] of Object.entries(all).filter(([en]) => en.startsWith('='))) {
      const v = value.slice(1);
      expect(sources.includes(`'${v}'`) || sources.includes(`"${v}"`), `${value}: no case of the suite gives this value`).toBe(true);
      expect(vi.trim(), value).not.toBe('');
    }
  });
});
