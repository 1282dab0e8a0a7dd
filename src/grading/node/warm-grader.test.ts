// The warm grader re-grades in a kept sandbox: it must see every change of the learner's files
// (a stale module would grade the previous attempt), and recover after a run it had to kill.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createWarmGrader, REPO_ROOT, type Report } from '../index.ts';
import { buggyVariant } from './testing/proof-catalogue.ts';

const grader = createWarmGrader();
afterAll(() => grader.close());

const read = (path: string) => readFileSync(join(REPO_ROOT, path), 'utf8');
const reference = read('solutions/retry-helper/retry.ts');
const buggy = (name: string) => buggyVariant('retry-helper', name, { 'retry.ts': reference }).files['retry.ts']!;
const grade = (text: string) => grader.grade({ exerciseId: 'retry-helper', files: { 'retry.ts': text }, lang: 'en' });
const why = (r: Report) =>
  `${r.message ?? ''} ${r.tests
    .filter((t) => t.status !== 'pass')
    .map((t) => `${t.name}: ${t.details}`)
    .join(' | ')}`.slice(0, 1500);
const failing = (r: Report) => [...new Set(r.tests.filter((t) => t.status !== 'pass').map((t) => t.rule))];

test('re-grading in a kept sandbox follows every change of the learner file', { timeout: 240_000 }, async () => {
  const first = await grade(reference);
  expect(first.status, why(first)).toBe('pass');
  expect(first.typeErrors).toEqual([]);

  const retries4xx = await grade(buggy('retries-4xx'));
  expect(retries4xx.status).toBe('fail');
  expect(failing(retries4xx)).toContain('R2');

  const typed = await grade(`${reference}\nexport const wrong: number = 'not a number';\n`);
  expect(typed.status, 'a type error alone does not fail the run').toBe('pass');
  expect(typed.typeErrors.map((e) => [e.file, e.message.slice(0, 6)])).toEqual([['retry.ts', 'TS2322']]);

  // fails only in the last file: vitest's default order would run that file first next time
  const budgetBug = await grade(buggy('bucket-without-cap'));
  expect(failing(budgetBug)).toEqual(['R13']);

  const looping = reference.replace('    trySpend() {\n', '    trySpend() {\n      while (true) {}\n');
  expect(looping).not.toBe(reference);
  const hung = await grader.grade({ exerciseId: 'retry-helper', files: { 'retry.ts': looping }, lang: 'en' });
  expect(hung.status).toBe('error');
  expect(hung.tests.some((t) => t.timedOut)).toBe(true);
  // files run in name order, so the first two files finished before the loop in the third
  expect(hung.tests.filter((t) => t.status === 'pass' || t.status === 'fail').length).toBeGreaterThan(30);

  const again = await grade(reference);
  expect(again.status, `the kept sandbox recovers after its run was killed: ${why(again)}`).toBe('pass');
  expect(again.typeErrors).toEqual([]);
  expect(again.counts.passed).toBe(first.counts.passed);
  // vitest would otherwise run the file that failed last time first: the report keeps its order
  expect(again.tests.map((t) => t.name)).toEqual(first.tests.map((t) => t.name));
  expect(first.tests[0]?.rule).toBe('R1');
});
