// The workbook command line: exit codes, usage errors in both languages, --json on stdout.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { confinementStatus, REPO_ROOT } from '../src/grading/index.ts';

const TSX = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
// Each call starts tsx; on a loaded 2-core machine that alone can take seconds.
const SPAWNS = 200_000;

function cli(script: 'check' | 'exercise', args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [TSX, join(REPO_ROOT, 'scripts', `${script}.ts`), ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, COURSE_LANG: '', ...env, NODE_OPTIONS: '' },
    timeout: 200_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('npm run check', () => {
  test('usage errors exit 2 with a message in the chosen language', { timeout: SPAWNS }, () => {
    const unknown = cli('check', ['no-such-exercise', '--lang', 'en']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown exercise "no-such-exercise"');
    const missing = cli('check', ['retry-helper', '--from', tmpdir()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('Thiếu file');
    expect(cli('check', []).code).toBe(2);
    expect(cli('check', ['retry-helper', '--lang', 'fr']).code).toBe(2);
    expect(cli('check', ['retry-helper', '--bogus']).code).toBe(2);
  });

  test('--json prints exactly the report; a failing starter exits 1', { timeout: 200_000 }, () => {
    const r = cli('check', ['retry-helper', '--from', 'exercises/retry-helper/starter', '--json', '--lang', 'en']);
    expect(r.code, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { version: number; status: string; tests: Array<{ message: string }> };
    expect(report.version).toBe(3);
    expect(report.status).toBe('fail');
    expect(report.tests.length).toBeGreaterThan(16);
  });

  test('the reference exits 0 with one line per rule', { timeout: 200_000 }, () => {
    const r = cli('check', ['retry-helper', '--from', 'solutions/retry-helper'], { COURSE_LANG: 'en' });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const ruleLines = r.stdout.split('\n').filter((l) => /^✔ PASS R\d+ /.test(l));
    expect(ruleLines.length).toBe(16);
    expect(r.stdout).toContain('All 16 rules pass');
  });

  test.skipIf(!confinementStatus().available && process.env.GRADER_REQUIRE_CONFINEMENT !== '1')(
    '--strict grades the reference in two confined processes; an exit(0) fails and is reported',
    { timeout: 200_000 },
    () => {
      const ok = cli('check', ['backoff', '--from', 'solutions/backoff', '--strict', '--lang', 'en']);
      expect(ok.code, ok.stdout + ok.stderr).toBe(0);
      expect(ok.stdout).toContain('rules pass');
      const dir = mkdtempSync(join(tmpdir(), 'strict-check-'));
      try {
        writeFileSync(join(dir, 'retry.ts'), readFileSync(join(REPO_ROOT, 'solutions/retry-helper/tampering/exit-zero.ts'), 'utf8'));
        const bad = cli('check', ['retry-helper', '--from', dir, '--strict', '--lang', 'en']);
        expect(bad.code, bad.stdout + bad.stderr).toBe(1);
        expect(bad.stderr).toContain('Strict grading noticed: learner-process-exited');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('npm run exercise', () => {
  test('list shows the exercises; unknown commands exit 2', { timeout: SPAWNS }, () => {
    const list = cli('exercise', ['list', '--lang', 'en']);
    expect(list.code).toBe(0);
    const ids = [...list.stdout.matchAll(/^ {2}(\S+)/gm)].map((m) => m[1]);
    // Course order: module by module, as the lessons come.
    expect(ids).toEqual([
      'timeout-choice',
      'deadline-middleware',
      'fan-out',
      'retry-helper',
      'backoff',
      'retry-budget',
      'hedged-fetch',
      'service-chain',
      'adaptive-throttle',
      'graceful-shutdown',
    ]);
    expect(cli('exercise', ['frobnicate']).code).toBe(2);
    expect(cli('exercise', ['start', 'nope']).code).toBe(2);
  });

  test('start copies the starter and never overwrites work without --force', { timeout: SPAWNS }, () => {
    const id = 'retry-helper';
    const dir = join(REPO_ROOT, 'workbook', id);
    const file = join(dir, 'retry.ts');
    const saved = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const dirExisted = existsSync(dir);
    try {
      if (saved === undefined) {
        expect(cli('exercise', ['start', id]).code).toBe(0);
        expect(readFileSync(file, 'utf8')).toBe(readFileSync(join(REPO_ROOT, 'exercises', id, 'starter', 'retry.ts'), 'utf8'));
      }
      writeFileSync(file, '// my work\n');
      const again = cli('exercise', ['start', id, '--lang', 'en']);
      expect(again.code).toBe(2);
      expect(again.stderr).toContain('nothing was overwritten');
      expect(readFileSync(file, 'utf8')).toBe('// my work\n');
      expect(cli('exercise', ['start', id, '--force']).code).toBe(0);
      expect(readFileSync(file, 'utf8')).not.toBe('// my work\n');
    } finally {
      if (saved !== undefined) writeFileSync(file, saved);
      if (!dirExisted) rmSync(dir, { recursive: true, force: true });
    }
  });

  test('import writes the code saved in the browser into the workbook, and keeps other work without --force', { timeout: SPAWNS }, () => {
    const id = 'backoff';
    const dir = join(REPO_ROOT, 'workbook', id);
    const file = join(dir, 'backoff.ts');
    const saved = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
    const dirExisted = existsSync(dir);
    const tmp = mkdtempSync(join(tmpdir(), 'course-import-'));
    const progressFile = join(tmp, 'course-progress.json');
    writeFileSync(
      progressFile,
      JSON.stringify({
        format: 'course-progress',
        version: 1,
        exportedAt: '2026-12-01T11:00:00.000Z',
        progress: { version: 1, lessons: {}, exercises: {}, quizzes: {} },
        code: { [id]: { version: 1, files: { 'backoff.ts': '// written in the browser\n' }, savedAt: '2026-12-01T10:00:00.000Z' } },
      }),
    );
    try {
      rmSync(file, { force: true });
      const first = cli('exercise', ['import', progressFile, '--lang', 'en']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toContain('Wrote your saved code of backoff');
      expect(readFileSync(file, 'utf8')).toBe('// written in the browser\n');
      writeFileSync(file, '// my editor\n');
      const kept = cli('exercise', ['import', progressFile]);
      expect(kept.code).toBe(0);
      expect(kept.stdout).toContain('--force');
      expect(readFileSync(file, 'utf8')).toBe('// my editor\n');
      expect(cli('exercise', ['import', progressFile, '--force']).code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('// written in the browser\n');
      writeFileSync(progressFile, '{"format":"something-else"}');
      const bad = cli('exercise', ['import', progressFile, '--lang', 'en']);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('not a progress file');
    } finally {
      rmSync(tmp, { recursive: true, force: true });
      if (saved !== undefined) writeFileSync(file, saved);
      else rmSync(file, { force: true });
      if (!dirExisted) rmSync(dir, { recursive: true, force: true });
    }
  });
});
