// Proves every exercise's hidden suite both ways: it accepts the reference and every
// alternative, and it catches the starter and every buggy variant with the rule each breaks.
// New exercises under exercises/ are covered without touching this file. Each test's verdict is
// recorded (testing/proof-catalogue.ts) for the worker runner's parity check in Chromium.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { filesHash, loadCatalogue, recordVerdicts, verdictsOf, type Variant, type Verdicts } from './testing/proof-catalogue.ts';
import { fsExerciseSource, gradeWith, GradeInputError, NodeSandbox, nodeTypeCheck, REPO_ROOT, type GradeOptions, type Report } from '../index.ts';

const source = fsExerciseSource();
const ids = await source.ids();
const SLOW = 240_000; // a loaded 2-core machine can make one vitest run take several seconds

/** At most `n` sandboxes at once: the machines have two cores. */
function limiter(n: number) {
  let active = 0;
  const queue: Array<() => void> = [];
  return async <T>(job: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await job();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}
const limit = limiter(2);

// Sandboxes are kept per exercise with vitest left running between grades (a fresh test worker
// every run, so nothing leaks from one variant to the next): half the time of a cold start.
const idle = new Map<string, NodeSandbox[]>();
afterAll(async () => {
  await Promise.all([...idle.values()].flat().map((s) => s.dispose()));
});

async function grade(exerciseId: string, files: Record<string, string>, opts: Partial<GradeOptions> = {}): Promise<Report> {
  return limit(async () => {
    const sandbox = idle.get(exerciseId)?.pop() ?? (await NodeSandbox.create());
    try {
      return await gradeWith({ exerciseId, files, lang: 'en' }, sandbox, { source, typecheck: false, warm: true, ...opts });
    } finally {
      idle.set(exerciseId, [...(idle.get(exerciseId) ?? []), sandbox]);
    }
  });
}

const failingRules = (r: Report) => [...new Set(r.tests.filter((t) => t.status !== 'pass').map((t) => t.rule))];
const summary = (r: Report) =>
  `${r.status}${r.message ? ` (${r.message})` : ''}; failing: ${r.tests
    .filter((t) => t.status !== 'pass')
    .map((t) => `${t.name}: ${t.details}`)
    .join(' | ')
    .slice(0, 1500)}`;

const recorded = new Map<string, Record<string, { hash: string; verdicts: Verdicts }>>();
afterAll(() => {
  for (const [id, entries] of recorded) recordVerdicts(id, entries);
});

for (const id of ids) {
  const bundle = (await source.load(id))!;
  const { reference, starter, buggy, alternatives } = await loadCatalogue(id, bundle);
  const rules = Object.keys(bundle.exercise.rules);
  const entries: Record<string, { hash: string; verdicts: Verdicts }> = {};
  recorded.set(id, entries);
  /** Grades a catalogue entry and records its verdicts for the worker-runner parity check. */
  const gradeVariant = async (v: Variant, opts: Partial<GradeOptions> = {}) => {
    const report = await grade(id, v.files, opts);
    entries[v.name] = { hash: filesHash(v.files, bundle.tests), verdicts: verdictsOf(report) };
    // Every entry is scored against the whole suite, however its run went.
    expect(report.counts.total, `${v.name}: tests counted, against exercises/${id}/test-list.json`).toBe(bundle.testList?.length);
    return report;
  };

  describe.concurrent(`exercise ${id}`, () => {
    test('the catalogue has a buggy variant for every rule and at least two alternatives', () => {
      const caught = new Set(buggy.flatMap((b) => b.expectFail));
      expect(
        rules.filter((r) => !caught.has(r)),
        'rules without a buggy variant',
      ).toEqual([]);
      expect(
        buggy.filter((b) => b.expectFail.length === 0).map((b) => b.name),
        'buggy patches without Breaks:',
      ).toEqual([]);
      expect(alternatives.length, 'alternative correct implementations').toBeGreaterThanOrEqual(2);
    });

    test('the reference passes every test, without type errors', { timeout: SLOW }, async () => {
      const report = await gradeVariant(reference, { typecheck: nodeTypeCheck() });
      expect(report.status, summary(report)).toBe('pass');
      expect(report.counts.failed).toBe(0);
      expect(new Set(report.tests.map((t) => t.rule)), 'rules exercised by the suite').toEqual(new Set(rules));
      expect(
        report.tests.map((t) => t.name),
        `exercises/${id}/test-list.json lists the suite's tests in the order they run: npm run exercise -- test-list ${id} writes it anew`,
      ).toEqual(bundle.testList);
      expect(report.typeErrors, 'type errors in the reference').toEqual([]);
    });

    test('the starter fails', { timeout: SLOW }, async () => {
      const report = await gradeVariant(starter);
      expect(report.status, summary(report)).not.toBe('pass');
    });

    for (const variant of buggy) {
      test(`${variant.name} fails ${variant.expectFail.join(', ')}`, { timeout: SLOW }, async () => {
        const report = await gradeVariant(variant);
        expect(report.status, summary(report)).not.toBe('pass');
        const failing = failingRules(report);
        for (const rule of variant.expectFail) expect(failing, `rule ${rule} among the failing rules; ${summary(report)}`).toContain(rule);
      });
    }

    for (const variant of alternatives) {
      test(`${variant.name} passes`, { timeout: SLOW }, async () => {
        const report = await gradeVariant(variant);
        expect(report.status, summary(report)).toBe('pass');
      });
    }
  });
}

describe.concurrent('the grader on hostile input (retry-helper)', () => {
  const id = 'retry-helper';
  const reference = readFileSync(join(REPO_ROOT, 'solutions', id, 'retry.ts'), 'utf8');

  test('a syntax error is status error with file, line and column', { timeout: SLOW }, async () => {
    const broken = reference.replace('export function fullJitterDelay(', 'export function fullJitterDelay((');
    const line = broken.split('\n').findIndex((l) => l.includes('fullJitterDelay((')) + 1;
    const report = await grade(id, { 'retry.ts': broken });
    expect(report.status, summary(report)).toBe('error');
    expect(report.error?.file).toBe('retry.ts');
    expect(report.error?.line).toBe(line);
    expect(report.error?.column).toBeGreaterThan(0);
    expect(report.error?.message).toBeTruthy();
    expect(report.message).toContain('retry.ts');
  });

  test('a synchronous infinite loop gives a timeout result naming the test, and the run ends', { timeout: SLOW }, async () => {
    const looping = reference.replace('    trySpend() {\n', '    trySpend() {\n      while (true) {}\n');
    expect(looping).not.toBe(reference);
    const started = performance.now();
    const report = await grade(id, { 'retry.ts': looping }, { testTimeoutMs: 2000, runTimeoutMs: 60_000 });
    expect(performance.now() - started, 'the run was stopped long before its hard limit').toBeLessThan(50_000);
    expect(report.status, summary(report)).toBe('error');
    const hung = report.tests.find((t) => t.timedOut && t.status === 'error');
    expect(hung?.rule, summary(report)).toBe('R13');
    expect(report.message).toContain(hung!.name);
    // kept with their own results (pass, or fail when a loaded machine pushed a timing test past its timeout)
    const finished = report.tests.filter((t) => t.status === 'pass' || t.status === 'fail');
    expect(finished.length, 'tests that finished before the loop').toBeGreaterThan(30);
  });

  test('the whole-run hard limit kills the run', { timeout: SLOW }, async () => {
    const looping = reference.replace('    trySpend() {\n', '    trySpend() {\n      while (true) {}\n');
    const report = await grade(id, { 'retry.ts': looping }, { testTimeoutMs: 1000, runTimeoutMs: 4000, watchdogIntervalMs: 0 });
    expect(report.status, summary(report)).toBe('error');
    expect(report.durationMs).toBeLessThan(30_000);
  });

  test('a never-settling promise fails its test by the per-test timeout', { timeout: SLOW }, async () => {
    const stuck = reference.replace(
      '  budget?.deposit();\n  let attempts = 0;',
      '  if (maxAttempts === 7) await new Promise(() => {});\n  budget?.deposit();\n  let attempts = 0;',
    );
    expect(stuck).not.toBe(reference);
    const report = await grade(id, { 'retry.ts': stuck }, { testTimeoutMs: 1000 });
    expect(report.status, summary(report)).toBe('fail');
    const timedOut = report.tests.filter((t) => t.timedOut);
    expect(timedOut.map((t) => t.name)).toEqual(['R7 uses the default baseMs 100 and capMs 2000']);
    expect(timedOut[0]!.details).toMatch(/1000 ms/);
  });

  test('missing, extra and path-escaping file names are rejected', async () => {
    const sandbox = await NodeSandbox.create();
    try {
      const attempt = (files: Record<string, string>) => gradeWith({ exerciseId: id, files, lang: 'en' }, sandbox, { source });
      for (const [files, code] of [
        [{}, 'missing-file'],
        [{ 'retry.ts': reference, 'extra.ts': '' }, 'extra-file'],
        [{ '../retry.ts': reference }, 'bad-path'],
        [{ '/etc/passwd': '' }, 'bad-path'],
        [{ 'tests/1-outcomes.test.ts': '' }, 'extra-file'],
        [{ 'C:\\retry.ts': '' }, 'bad-path'],
      ] as const) {
        const err = await attempt(files).catch((e: unknown) => e);
        expect(err, JSON.stringify(Object.keys(files))).toBeInstanceOf(GradeInputError);
        expect((err as GradeInputError).code, JSON.stringify(Object.keys(files))).toBe(code);
      }
      const unknown = await gradeWith({ exerciseId: 'nope', files: {}, lang: 'vi' }, sandbox, { source }).catch((e: unknown) => e);
      expect((unknown as GradeInputError).code).toBe('unknown-exercise');
      expect((unknown as GradeInputError).localized('vi')).toContain('Không có bài tập');
    } finally {
      await sandbox.dispose();
    }
  });
});
