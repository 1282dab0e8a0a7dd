// A learner's code that never returns, graded strictly: it costs the test's own timeout, not the whole
// run, the report says which test it stopped in, and the warm tests' sandbox grades the next learner.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, REPO_ROOT, StrictGrader } from '../index.ts';

const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const reference = readFileSync(join(REPO_ROOT, 'solutions', 'retry-helper', 'retry.ts'), 'utf8');

describe.skipIf(!status.available && !required)('strict grading of code that hangs', () => {
  const grader = new StrictGrader(() => ConfinedSandbox.create(), { source: fsExerciseSource() });
  afterAll(() => grader.dispose());
  const grade = (text: string) => grader.grade({ exerciseId: 'retry-helper', files: { 'retry.ts': text }, lang: 'en' });

  test('a synchronous endless loop costs its test timeout; the next learner is graded as usual', { timeout: 120_000 }, async () => {
    const first = await grade(reference);
    expect(first.report.status).toBe('pass');
    // The budget's trySpend never returns: the tests' call into the learner's process blocks.
    const looping = reference.replace('    trySpend() {\n', '    trySpend() {\n      while (true) {}\n');
    expect(looping).not.toBe(reference);
    const started = performance.now();
    const hung = await grade(looping);
    const took = performance.now() - started;
    expect(hung.report.status).toBe('error');
    expect(
      hung.report.tests.some((t) => t.timedOut && t.rule === 'R13'),
      JSON.stringify(hung.report.message),
    ).toBe(true);
    // files run in name order: the two before the budget's finished before the loop
    expect(hung.report.tests.filter((t) => t.status === 'pass').length).toBeGreaterThan(30);
    // the test's timeout (2 s) and the watchdog's look (every 250 ms), far from the run's 30 s limit
    expect(took).toBeLessThan(20_000);
    const next = await grade(reference);
    expect(next.report.status).toBe('pass');
    expect(next.report.counts).toEqual(first.report.counts);
  });
});
