import { describe, expect, test } from 'vitest';
import { FakeSandbox } from '../testing/fake-sandbox.ts';
import { gradeWith, VITEST_ARGS } from './grade.ts';
import { GradeInputError } from './files.ts';
import { collected, end, lines, result, tinySource } from '../testing/test-fixtures.ts';

const T = '/sandbox/tests/add.test.ts';

describe('gradeWith (fake sandbox)', () => {
  test('mounts env, suite, visible and learner files; runs vitest with the test timeout; maps the result', async () => {
    const sandbox = new FakeSandbox();
    sandbox.onRun = (run, sb) => {
      if (run.args.includes('tsconfig.json')) return { output: 'src/add.ts(1,14): error TS7006: Parameter implicitly has an any type.' };
      sb.files.set('grader-events.jsonl', lines(collected(T, ['R1 adds', 'R2 ends']), result(`${T}_0`, 'passed'), result(`${T}_1`, 'passed'), end()));
      return { exitCode: 0 };
    };
    const report = await gradeWith({ exerciseId: 'tiny', files: { 'add.ts': 'export const add = (a, b) => a + b;' }, lang: 'en' }, sandbox, {
      source: tinySource,
      typecheck: { command: 'node', args: ['tsc', '-p', 'tsconfig.json'] },
      watchdogIntervalMs: 0,
    });
    expect([...sandbox.files.keys()].sort()).toEqual(
      [
        'grader-events.jsonl',
        'grader-progress.jsonl',
        'grader-reporter.mjs',
        'grader-setup.mjs',
        'package.json',
        'src/add.ts',
        'src/types.ts',
        'tests/add.test.ts',
        'tsconfig.json',
        'vitest.config.mjs',
      ].sort(),
    );
    expect(sandbox.files.get('src/add.ts')).toBe('export const add = (a, b) => a + b;');
    expect(sandbox.files.get('src/types.ts')).toBe('export type N = number;\n');
    const vitest = sandbox.runs.find((r) => r.args[0] === VITEST_ARGS[0])!;
    expect(vitest.opts).toEqual({ timeoutMs: 5000, env: { GRADER_TEST_TIMEOUT_MS: '500' } });
    expect(report.status).toBe('pass');
    expect(report.typeErrors).toEqual([{ file: 'add.ts', line: 1, column: 14, message: 'TS7006: Parameter implicitly has an any type.' }]);
  });

  test('stale results from a previous run are cleared before running', async () => {
    const sandbox = new FakeSandbox();
    sandbox.files.set('grader-events.jsonl', lines(collected(T, ['R1 adds']), result(`${T}_0`, 'passed'), end()));
    sandbox.onRun = () => ({ exitCode: 1, output: 'crashed' });
    const report = await gradeWith({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' }, sandbox, { source: tinySource, watchdogIntervalMs: 0 });
    expect(report.status).toBe('error');
    expect(report.message).toContain('crashed');
  });

  test('a test stuck past its timeout makes the watchdog stop the run', async () => {
    const sandbox = new FakeSandbox();
    let release!: () => void;
    sandbox.kill = async () => {
      sandbox.killed++;
      release();
    };
    sandbox.onRun = async (_run, sb) => {
      sb.files.set('grader-events.jsonl', lines(collected(T, ['R1 adds', 'R2 ends'])));
      sb.files.set('grader-progress.jsonl', lines({ type: 'start', id: `${T}_0`, name: 'R1 adds' }));
      await new Promise<void>((r) => (release = r));
      return { exitCode: null };
    };
    const report = await gradeWith({ exerciseId: 'tiny', files: { 'add.ts': '' }, lang: 'en' }, sandbox, {
      source: tinySource,
      testTimeoutMs: 100,
      watchdogIntervalMs: 50,
    });
    expect(sandbox.killed).toBe(1);
    expect(report.status).toBe('error');
    expect(report.tests[0]).toMatchObject({ name: 'R1 adds', status: 'error', timedOut: true });
  });

  test('input errors are thrown before anything runs', async () => {
    const sandbox = new FakeSandbox();
    await expect(gradeWith({ exerciseId: 'tiny', files: { '../x': '' }, lang: 'en' }, sandbox, { source: tinySource })).rejects.toBeInstanceOf(GradeInputError);
    await expect(gradeWith({ exerciseId: 'nope', files: {}, lang: 'en' }, sandbox, { source: tinySource })).rejects.toThrow('Unknown exercise "nope"');
    expect(sandbox.runs).toEqual([]);
  });
});
