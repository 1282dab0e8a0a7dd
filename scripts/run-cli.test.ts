// What every command shares: the language choice, --help, and exit 2 with a message in the chosen
// language for an unknown option, a missing value or a bad language.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { chooseLang, runCliWith, type CliSpec } from './run-cli.ts';

const options = { seed: { type: 'string' }, set: { type: 'string', multiple: true }, json: { type: 'boolean' } } as const;
const seen: unknown[] = [];
const spec: CliSpec<typeof options> = {
  usage: { vi: 'Cách dùng: demo', en: 'Usage: demo' },
  options,
  maxPositionals: 1,
  main: (ctx) => {
    seen.push(ctx);
    return 0;
  },
};

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true));
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true));
  return { out, err };
}
afterEach(() => {
  vi.restoreAllMocks();
  seen.length = 0;
});

describe('runCli', () => {
  test('language: --lang wins, then COURSE_LANG, then Vietnamese', () => {
    expect(chooseLang([], {})).toEqual({ lang: 'vi' });
    expect(chooseLang([], { COURSE_LANG: 'en' })).toEqual({ lang: 'en' });
    expect(chooseLang(['--lang', 'vi'], { COURSE_LANG: 'en' })).toEqual({ lang: 'vi' });
    expect(chooseLang(['--lang=en'], {})).toEqual({ lang: 'en' });
    expect(chooseLang(['--lang', 'fr'], {})).toEqual({ lang: 'vi', bad: 'fr' });
  });

  test('hands main typed values, repeated options as lists, and the language', async () => {
    capture();
    expect(await runCliWith(spec, ['sim', '--seed', '7', '--set', 'a=1', '--set=b=2', '--json'], { COURSE_LANG: 'en' })).toBe(0);
    expect(seen[0]).toMatchObject({ positionals: ['sim'], lang: 'en', values: { seed: '7', set: ['a=1', 'b=2'], json: true } });
  });

  test('--help prints the usage in the chosen language and exits 0 without running main', async () => {
    const { out } = capture();
    expect(await runCliWith(spec, ['--help'], {})).toBe(0);
    expect(out.join('')).toBe('Cách dùng: demo\n');
    expect(seen).toEqual([]);
  });

  test('usage errors exit 2 with the message and the usage, in the chosen language', async () => {
    const { err } = capture();
    expect(await runCliWith(spec, ['--frobnicate'], { COURSE_LANG: 'en' })).toBe(2);
    expect(await runCliWith(spec, ['--seed'], {})).toBe(2);
    expect(await runCliWith(spec, ['a', 'b'], { COURSE_LANG: 'en' })).toBe(2);
    expect(err).toEqual([
      'Unknown option --frobnicate.\n\nUsage: demo\n',
      'Tuỳ chọn --seed cần một giá trị.\n\nCách dùng: demo\n',
      'Unexpected argument "b".\n\nUsage: demo\n',
    ]);
    expect(seen).toEqual([]);
  });

  test('a language it does not know is refused in both languages', async () => {
    const { err } = capture();
    expect(await runCliWith(spec, ['--lang', 'fr'], { COURSE_LANG: 'en' })).toBe(2);
    expect(err.join('')).toContain('ngôn ngữ "fr"');
    expect(err.join('')).toContain('Unknown language "fr"');
  });
});
