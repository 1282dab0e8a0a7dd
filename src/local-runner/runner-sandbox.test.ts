// The local runner runs the learner's code (and, from an imported progress file, code the learner may
// not have written): confined where the machine can, and never with the environment of whoever started it.
import { describe, expect, test } from 'vitest';
import { NodeSandbox } from '../grading/node/node-sandbox.ts';
import { confinementStatus } from '../grading/node/confinement.ts';
import type { Report } from '../grading/core/types.ts';
import { runnerSandbox, withSandbox } from './index.ts';

const report: Report = { version: 3, status: 'pass', tests: [], typeErrors: [], counts: { passed: 1, failed: 0, total: 1 }, durationMs: 1 };
const printEnv = 'process.stdout.write(JSON.stringify(process.env))';

describe('where the local runner runs code', () => {
  test('confined where the machine can confine runs, and each report says which', () => {
    const confined = runnerSandbox({}, () => ({ available: true, mechanism: 'bubblewrap: …' }));
    expect(confined).toMatchObject({ confined: true, mechanism: 'bubblewrap: …' });
    expect(withSandbox(report, confined).sandbox).toEqual({ confined: true, mechanism: 'bubblewrap: …' });
    const reason = { vi: 'máy chưa cài bubblewrap', en: 'bubblewrap is not installed' };
    const plain = runnerSandbox({}, () => ({ available: false, mechanism: 'bubblewrap', reason }));
    expect(plain).toMatchObject({ confined: false, reason });
    expect(withSandbox(report, plain).sandbox).toEqual({ confined: false, mechanism: expect.stringMatching(/^plain child processes: the code runs as you/) });
    expect(runnerSandbox({ COURSE_RUNNER_UNCONFINED: '1' }, () => ({ available: true, mechanism: 'x' })).confined).toBe(false);
  });

  // The attack: the sandbox passed the whole environment (tokens, keys) to the learner's code.
  test('plain processes give the code a clean environment: none of the grader’s variables', async () => {
    process.env.COURSE_TEST_SECRET = 'do-not-leak-4711';
    const sandbox = await NodeSandbox.create();
    try {
      await sandbox.mount({ 'env.mjs': printEnv });
      const r = await sandbox.run('node', ['env.mjs'], { timeoutMs: 20_000, env: { ASKED_FOR: 'yes' } });
      const env = JSON.parse(r.output) as Record<string, string>;
      expect(r.output).not.toContain('do-not-leak-4711');
      expect(Object.keys(env).sort()).toEqual(['ASKED_FOR', 'CI', 'FORCE_COLOR', 'HOME', 'LANG', 'NO_COLOR', 'PATH', 'TMPDIR']);
      expect(env.HOME).toBe(sandbox.root);
    } finally {
      delete process.env.COURSE_TEST_SECRET;
      await sandbox.dispose();
    }
  });

  test.skipIf(!confinementStatus().available)('the confined sandbox, used where available, gives none of them either', async () => {
    process.env.COURSE_TEST_SECRET = 'do-not-leak-4711';
    const sandbox = await runnerSandbox({}).create();
    try {
      await sandbox.mount({ 'env.mjs': printEnv });
      const r = await sandbox.run('node', ['env.mjs'], { timeoutMs: 20_000 });
      expect(r.exitCode).toBe(0);
      expect(r.output).not.toContain('do-not-leak-4711');
    } finally {
      delete process.env.COURSE_TEST_SECRET;
      await sandbox.dispose?.();
    }
  });
});
