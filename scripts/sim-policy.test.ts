// `npm run sim -- <sim> --policy <folder>`: the learner's exercise folder as one more policy, run by
// the real command (tsx, a worker thread, the time limit). The reference solutions must give the row
// of the built-in policy they implement; folders the simulation cannot use exit 2; code that loops
// forever is stopped with a message (exit 1).
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function sim(env: Record<string, string>, ...args: string[]): Promise<Run> {
  const start = performance.now();
  return new Promise((resolve) => {
    execFile(tsx, ['scripts/sim.ts', ...args], { cwd: root, timeout: 90_000, env: { ...process.env, COURSE_LANG: '', ...env } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr, ms: performance.now() - start });
    });
  });
}
const en = (...args: string[]) => sim({ COURSE_LANG: 'en' }, ...args);
const vi = (...args: string[]) => sim({}, ...args);

const dir = mkdtempSync(join(tmpdir(), 'sim-policy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
/** A folder holding one file of the learner's code. */
function folder(name: string, file: string, text: string): string {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  writeFileSync(join(path, file), text);
  return path;
}

type Row = Record<string, unknown>;
const rowOf = (rows: Row[], key: string, id: string) => {
  const row = rows.find((r) => r[key] === id);
  if (!row) throw new Error(`no row ${id}`);
  const { [key]: _id, ...figures } = row;
  return figures;
};

describe('npm run sim -- <sim> --policy <folder>', { timeout: 120_000 }, () => {
  it('the reference solutions give the rows of the built-in policies they implement; --json carries the outcome', async () => {
    const [storm, waves, wavesVi, reconnect] = await Promise.all([
      en('retry-storm', '--policy', 'solutions/retry-budget', '--json'),
      en('jitter-waves', '--policy', 'solutions/backoff', '--json'),
      vi('jitter-waves', '--policy', 'solutions/backoff'),
      en('reconnect-storm', '--policy', 'solutions/backoff', '--json'),
    ]);
    expect(storm.code, storm.stderr).toBe(0);
    const out = JSON.parse(storm.stdout) as { rows: Row[]; learner: Row[] };
    expect(rowOf(out.rows, 'policy', 'yours-retry-budget')).toEqual(rowOf(out.rows, 'policy', 'full-jitter-budget-10'));
    expect(out.learner).toEqual([
      {
        exercise: 'retry-budget',
        policy: 'yours-retry-budget',
        folder: 'solutions/retry-budget',
        label: { vi: 'Code của bạn: full jitter + RatioRetryBudget 10%', en: 'Your code: full jitter + RatioRetryBudget 10%' },
        // Not graded by this command: unknown, and the label is not marked.
        notPassing: null,
        comparison: {
          vi: 'Code của bạn hồi phục cùng lúc với "Full jitter + retry budget 10%" (sau 0 s).',
          en: 'Your code recovered at the same moment as "Full jitter + 10% retry budget" (after 0 s).',
        },
      },
    ]);

    expect(reconnect.code, reconnect.stderr).toBe(0);
    const reconnectRows = (JSON.parse(reconnect.stdout) as { rows: Row[] }).rows;
    expect(rowOf(reconnectRows, 'policy', 'yours-backoff')).toEqual(rowOf(reconnectRows, 'policy', 'full-jitter'));

    expect(waves.code, waves.stderr).toBe(0);
    const rows = (JSON.parse(waves.stdout) as { rows: Row[] }).rows;
    expect(rowOf(rows, 'strategy', 'yours-backoff')).toEqual(rowOf(rows, 'strategy', 'full'));
    // For people: the table with its row added, then the sentence, in Vietnamese by default.
    expect(wavesVi.code, wavesVi.stderr).toBe(0);
    expect(wavesVi.stdout).toMatch(/^yours-backoff +86 +4000 +3000 +0 +6569 ms$/m);
    expect(wavesVi.stdout).toContain(
      'yours-backoff (solutions/backoff): Code của bạn: Full jitter (backoff.ts)\n  Cửa sổ đông nhất với code của bạn có 86 retry',
    );
  });

  it('--help and list say what --policy runs, its time limit, and that it does not grade the code', async () => {
    const [help, helpVi, list] = await Promise.all([en('--help'), vi('--help'), en('list')]);
    expect(help.stdout).toContain('--policy DIR');
    expect(help.stdout).toContain('gets 20 s to load and run (SIM_TIME_LIMIT_MS, in ms). It is not graded here');
    expect(helpVi.stdout).toContain('Lệnh này không chấm code');
    expect(list.stdout).toContain('    runs your code for: backoff (backoff.ts), retry-budget (budget.ts), retry-helper (retry.ts) (--policy)');
    expect(list.stdout).toContain('    runs your code for: timeout-choice (timeout-choice.ts) (--policy)');
  });

  it('exits 2 with a message for a folder the simulation cannot use, a missing folder, a folder of no exercise', async () => {
    const empty = folder('empty', 'notes.md', 'nothing here\n');
    const [unusable, unusableVi, missing, missingVi, none] = await Promise.all([
      en('retry-storm', '--policy', 'solutions/timeout-choice'),
      vi('overload-recovery', '--policy', 'solutions/backoff'),
      en('retry-storm', '--policy', 'workbook/no-such-folder'),
      vi('retry-storm', '--policy', 'workbook/no-such-folder'),
      en('hedging', '--policy', empty),
    ]);
    for (const r of [unusable, unusableVi, missing, missingVi, none]) {
      expect(r.code, r.stderr).toBe(2);
      expect(r.stdout).toBe('');
    }
    expect(unusable.stderr).toContain(
      'sim: solutions/timeout-choice: The "retry-storm" simulation cannot run code for "timeout-choice"; it can run code for: backoff, retry-budget, retry-helper.',
    );
    expect(unusableVi.stderr).toContain('Simulation "overload-recovery" không chạy được code của bài "backoff"; nó chạy được code của: adaptive-throttle.');
    expect(missing.stderr).toContain('sim: No folder workbook/no-such-folder: --policy takes the folder of an exercise');
    expect(missingVi.stderr).toContain('sim: Không có thư mục workbook/no-such-folder');
    expect(none.stderr).toContain('holds the files of no exercise. The "hedging" simulation runs code for: —.');
  });

  it('stops code that loops forever within the time limit (exit 1), in both languages', async () => {
    const loop = folder('loop', 'backoff.ts', 'export function fullJitterDelay(): number {\n  for (;;) {}\n}\n');
    const limit = { SIM_TIME_LIMIT_MS: '2000' };
    const [english, vietnamese] = await Promise.all([
      sim({ ...limit, COURSE_LANG: 'en' }, 'retry-storm', '--policy', loop),
      sim(limit, 'jitter-waves', '--policy', loop, '--json'),
    ]);
    expect(english.code).toBe(1);
    expect(english.stdout).toBe('');
    expect(english.stderr).toBe(`sim: Your code (${loop}) did not finish within 2 s and was stopped: look for a loop that never ends.\n`);
    expect(vietnamese.code).toBe(1);
    expect(vietnamese.stdout).toBe('');
    expect(vietnamese.stderr).toContain('không chạy xong trong 2 s và đã bị dừng');
    // The limit plus starting tsx and the worker, on a busy machine.
    for (const r of [english, vietnamese]) expect(r.ms).toBeLessThan(20_000);
  });

  it('code that does not load, or lacks an export, fails with the reason (exit 1)', async () => {
    const syntax = folder('syntax', 'budget.ts', 'export class RatioRetryBudget {\n  constructor( {}\n');
    const throws = folder('throws', 'throttle.ts', "throw new Error('not yet');\n");
    const noExport = folder('no-export', 'backoff.ts', 'export const nothing = 1;\n');
    const [a, b, c] = await Promise.all([
      en('retry-storm', '--policy', syntax),
      vi('overload-recovery', '--policy', throws),
      en('jitter-waves', '--policy', noExport, '--json'),
    ]);
    expect(a.code).toBe(1);
    expect(a.stderr).toContain(`sim: Your code in ${join(syntax, 'budget.ts')} did not load: `);
    expect(b.code).toBe(1);
    expect(b.stderr).toBe(`sim: Không nạp được code của bạn trong ${join(throws, 'throttle.ts')}: Error: not yet\n`);
    // The simulation ran without that policy, and says why.
    expect(c.code).toBe(1);
    const out = JSON.parse(c.stdout) as { rows: Row[]; learner: Row[] };
    expect(out.rows.map((r) => r['strategy'])).toEqual(['none', 'equal', 'full', 'decorrelated']);
    expect(out.learner[0]!['error']).toEqual({
      vi: 'Code của bạn cho bài backoff không export fullJitterDelay, mà simulation này cần.',
      en: 'Your code for backoff exports no fullJitterDelay, which this simulation needs.',
    });
  });

  it('seeds Math.random: the same seed and code give the same figures, beside other policies too; prints go to stderr', async () => {
    const random = folder(
      'math-random',
      'backoff.ts',
      "let said = false;\nexport function fullJitterDelay(failures: number, baseMs: number, capMs: number): number {\n  if (!said) console.log('called');\n  said = true;\n  return Math.random() * Math.min(capMs, baseMs * 2 ** (failures - 1));\n}\n",
    );
    const [one, again, beside] = await Promise.all([
      en('retry-storm', '--policy', random, '--json'),
      en('retry-storm', '--policy', random, '--json'),
      en('retry-storm', '--policy', 'solutions/retry-budget', '--policy', random, '--json'),
    ]);
    for (const r of [one, again, beside]) {
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^called$/m);
    }
    const yours = (r: Run) => rowOf((JSON.parse(r.stdout) as { rows: Row[] }).rows, 'policy', 'yours-backoff');
    expect(one.stdout).toBe(again.stdout);
    expect(yours(beside)).toEqual(yours(one));
  });
});
