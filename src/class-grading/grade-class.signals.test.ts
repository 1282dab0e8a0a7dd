// Ctrl-C or SIGTERM in the middle of grading a class: a real grade-class process, strictly graded in
// bubblewrap, is stopped while its sandboxes (the hidden tests among them) are on disk, and leaves
// none behind in its temp folder. Ctrl-C is the signal sent to the whole process group, tsx and the
// script both; it used to kill the script outright on tsx's second SIGINT, before the exit hook ran.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { confinementStatus, REPO_ROOT } from '../grading/index.ts';
import { removeTreeSync } from '../grading/node/remove-tree.ts';
import { makeAssignment, makeSubmission } from './testing/test-fixtures.ts';

const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const TSX = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const SLOW = 180_000;

const root = mkdtempSync(join(tmpdir(), 'grade-class-signals-'));
// Run as root, each sandbox is another user, who must reach its folder in the temp folder below.
chmodSync(root, 0o755);
afterAll(() => removeTreeSync(root));

function makeClass(): { assignmentFile: string; dir: string } {
  const dir = join(root, 'submissions');
  mkdirSync(dir, { recursive: true });
  const assignment = makeAssignment({ quizzes: [] });
  const assignmentFile = join(root, 'assignment.json');
  writeFileSync(assignmentFile, JSON.stringify(assignment));
  const reference = readFileSync(join(REPO_ROOT, 'solutions', 'retry-helper', 'retry.ts'), 'utf8');
  for (let i = 0; i < 6; i++) {
    const learner = { name: `Learner ${i}`, email: `l${i}@example.test` };
    writeFileSync(join(dir, `l${i}.json`), JSON.stringify(makeSubmission(assignment, learner, { 'retry-helper': { 'retry.ts': reference } })));
  }
  return { assignmentFile, dir };
}

/** Resolves when `ready()` holds (checked every 50 ms), or rejects after `ms`. */
async function until(ready: () => boolean, ms: number, what: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const sandboxesIn = (tmp: string) => readdirSync(tmp).filter((n) => n.startsWith('grade-'));

describe.skipIf(!status.available && !required)('grade-class stopped by a signal', () => {
  const { assignmentFile, dir } = makeClass();

  for (const [signal, group] of [
    ['SIGINT', true],
    ['SIGTERM', false],
  ] as const) {
    test(`${signal} to ${group ? 'the process group (Ctrl-C)' : 'the process'} leaves no sandbox in the temp folder`, { timeout: SLOW }, async () => {
      const tmp = join(root, `tmp-${signal}`);
      mkdirSync(tmp, { mode: 0o755 });
      const child = spawn(
        process.execPath,
        [
          TSX,
          join(REPO_ROOT, 'scripts', 'grade-class.ts'),
          '--assignment',
          assignmentFile,
          '--submissions',
          dir,
          '--out',
          join(root, `out-${signal}`),
          '--lang',
          'en',
        ],
        {
          cwd: REPO_ROOT,
          env: { ...process.env, TMPDIR: tmp, NODE_OPTIONS: '' },
          detached: true, // a process group of its own, as a terminal's foreground job
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      let exited = false;
      const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, sig) => {
          exited = true;
          resolve({ code, signal: sig });
        }),
      );
      try {
        // A grade under way: a sandbox holds the hidden tests.
        await until(
          () => exited || sandboxesIn(tmp).some((s) => existsSync(join(tmp, s, 'work', 'tests'))),
          120_000,
          () => `a sandbox with the hidden tests in ${tmp} (${stderr})`,
        );
        expect(exited, `grade-class ended before the signal: ${stderr}`).toBe(false);
        process.kill(group ? -child.pid! : child.pid!, signal);
        const end = await ended;
        expect(end.code === (signal === 'SIGINT' ? 130 : 143) || end.signal === signal, `${JSON.stringify(end)}: ${stderr}`).toBe(true);
        // The grader's descendants (bwrap dies with its parent) are gone once the group is empty.
        await until(
          () => {
            try {
              process.kill(-child.pid!, 0);
              return false;
            } catch {
              return true;
            }
          },
          20_000,
          () => 'the process group to end',
        );
        expect(sandboxesIn(tmp), stderr).toEqual([]);
      } finally {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          // ended
        }
      }
    });
  }
});
