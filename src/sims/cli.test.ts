import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function sim(...args: string[]): Promise<Run> {
  return simIn({ COURSE_LANG: 'en' }, ...args);
}

function simIn(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(tsx, ['scripts/sim.ts', ...args], { cwd: root, timeout: 60_000, env: { ...process.env, COURSE_LANG: '', ...env } }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

const NAMES = ['jitter-waves', 'retry-storm', 'hedging', 'deadline-chain', 'amplification', 'timeout-choice', 'overload-recovery', 'reconnect-storm'];

describe('npm run sim', { timeout: 120_000 }, () => {
  it('lists every simulation with its parameters', async () => {
    const r = await sim('list');
    expect(r.code).toBe(0);
    for (const n of NAMES) expect(r.stdout).toMatch(new RegExp(`^${n} `, 'm'));
    expect(r.stdout).toContain('budgetPercent=10');
  });

  it('--json prints exactly one JSON object with the lesson rows, for every simulation', async () => {
    const runs = await Promise.all(NAMES.map((n) => sim(n, '--json')));
    runs.forEach((r, i) => {
      expect(r.code, NAMES[i]).toBe(0);
      const lines = r.stdout.trim().split('\n');
      expect(lines, NAMES[i]).toHaveLength(1);
      const out = JSON.parse(lines[0]!);
      expect(out.sim).toBe(NAMES[i]);
      expect(Array.isArray(out.rows)).toBe(true);
      expect(out.rows.length).toBeGreaterThan(0);
    });
    const storm = JSON.parse(runs[1]!.stdout);
    const fixed = storm.rows.find((r: { policy: string }) => r.policy === 'fixed-1s-x5');
    expect(fixed).toHaveProperty('recoveredAfterMs', null);
    expect(JSON.parse(runs[2]!.stdout).rows.map((r: { mode: string }) => r.mode)).toEqual(['plain', 'hedged']);
    expect(JSON.parse(runs[3]!.stdout).data.bad.length).toBeGreaterThan(0);
  });

  it('applies --set and --seed, and the same seed gives the same output', async () => {
    const [a, b, c] = await Promise.all([
      sim('hedging', '--seed', '9', '--set', 'requests=5000', '--json'),
      sim('hedging', '--seed=9', '--set', 'requests=5000', '--json'),
      sim('hedging', '--seed', '10', '--set', 'requests=5000', '--json'),
    ]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout).params.requests).toBe(5000);
    expect(a.stdout).toBe(b.stdout);
    expect(a.stdout).not.toBe(c.stdout);
  });

  it('prints a table for people', async () => {
    const r = await sim('amplification', '--set', 'layers=3', '--set', 'attemptsPerLayer=4');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Calls at the bottom/);
    expect(r.stdout).toMatch(/^\s+3\s+64\s/m);
  });

  it('speaks COURSE_LANG, else Vietnamese, like the other commands; --lang wins', async () => {
    const [plain, english, flag] = await Promise.all([
      simIn({}, 'amplification', '--set', 'layers=3'),
      simIn({ COURSE_LANG: 'en' }, 'amplification', '--set', 'layers=3'),
      simIn({ COURSE_LANG: 'en' }, 'amplification', '--set', 'layers=3', '--lang', 'vi'),
    ]);
    expect(english.stdout).toMatch(/Calls at the bottom/);
    expect(plain.stdout).not.toMatch(/Calls at the bottom/);
    expect(plain.stdout).toMatch(/[ạảấầẩậắằẳặẹẻẽếềểễệịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹđ]/);
    expect(flag.stdout).toBe(plain.stdout);
  });

  it('exits 2 with a message on unknown names, parameters, values and flags', async () => {
    const cases = await Promise.all([
      sim('no-such-sim'),
      sim('hedging', '--set', 'speed=3'),
      sim('hedging', '--set', 'requests=5'),
      sim('hedging', '--set', 'requests=lots'),
      sim('hedging', '--frobnicate'),
      sim('hedging', '--seed', '-4'),
      sim(),
    ]);
    const patterns = [
      /Unknown simulation "no-such-sim"/,
      /Unknown parameter "speed"/,
      /between 1000 and 1000000/,
      /not valid/,
      /Unknown option --frobnicate/,
      /--seed/,
      /Missing simulation name/,
    ];
    cases.forEach((r, i) => {
      expect(r.code, String(patterns[i])).toBe(2);
      expect(r.stderr).toMatch(patterns[i]!);
      expect(r.stdout).toBe('');
    });
  });
});
