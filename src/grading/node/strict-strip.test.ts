// The learner's TypeScript made plain in the grader: types erased in place, everything else left to
// the learner's process.
import { expect, test } from 'vitest';
import { createTypeStripper, stripLearnerTypes, type Strip } from './strict-strip.ts';

const positionOf = (text: string, needle: string) => {
  const before = text.slice(0, text.indexOf(needle)).split('\n');
  return { line: before.length, column: before.at(-1)!.length };
};

test('types are erased where they stand: every line and column of the code stays put', () => {
  const source = [
    "import type { Options } from './types.ts';",
    'export interface Budget { trySpend(): boolean }',
    'export function spend(budget: Budget, times: number = 1): number {',
    '  let n: number = 0;',
    '  while (n < times && (budget as Budget).trySpend()) n++;',
    "  throw new Error('line 6');",
    '}',
  ].join('\n');
  const { files, plain } = stripLearnerTypes({ 'retry.ts': source });
  expect(plain).toEqual(['retry.ts']);
  const out = files['retry.ts']!;
  expect(out).not.toMatch(/: number|interface|as Budget|import type/);
  for (const needle of ['export function spend', 'trySpend()) n++', "throw new Error('line 6')"]) {
    expect(positionOf(out, needle), needle).toEqual(positionOf(source, needle));
  }
  // It is JavaScript now: it runs without any TypeScript tooling.
  const spend = new Function(`${out.replace(/export /g, '')}; return spend;`)() as (b: { trySpend(): boolean }, t: number) => number;
  expect(() => spend({ trySpend: () => true }, 3)).toThrow('line 6');
});

test('code that needs more than erasing, or does not parse, is left to the learner process as it is', () => {
  const files = {
    'enum.ts': 'export enum Reason { GaveUp, Aborted }\n',
    'props.ts': 'export class Budget { constructor(private tokens: number) {} }\n',
    'broken.ts': 'export const x: = 1;\n',
    'plain.ts': 'export const ok = 1;\n',
    'notes.md': 'const x: number = 1',
  };
  const out = stripLearnerTypes(files);
  expect(out.plain).toEqual(['plain.ts']);
  expect(out.files).toEqual(files);
});

test('after a fault of the stripper itself, it is never called again: no later learner gets its output', () => {
  const calls: string[] = [];
  const flaky: Strip = (code) => {
    calls.push(code);
    if (code.includes('hostile')) throw Object.assign(new Error('memory access out of bounds'), { code: 'ERR_INTERNAL_ASSERTION' });
    if (code.includes('enum')) throw Object.assign(new Error('enum'), { code: 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX' });
    return code.replace(': number', '        ');
  };
  const strip = createTypeStripper(() => flaky);
  expect(strip({ 'a.ts': 'const a: number = 1;', 'b.ts': 'enum B {}' }).plain, 'a syntax verdict is no fault').toEqual(['a.ts']);
  const files = { 'h.ts': 'hostile', 'later.ts': 'const n: number = 1;' };
  expect(strip(files)).toEqual({ files, plain: [] });
  expect(strip({ 'next.ts': 'const n: number = 2;' }).plain).toEqual([]);
  expect(calls).toEqual(['const a: number = 1;', 'enum B {}', 'hostile']);
});

// Last in this file: it breaks Node's stripper for the rest of this process (vitest gives each test
// file a process of its own).
test("a file that breaks Node's stripper turns stripping off: nothing after it is stripped", () => {
  const hostile = `export const x = ${'('.repeat(100_000)}1${')'.repeat(100_000)};\n`;
  const files = { 'hostile.ts': hostile, 'later.ts': 'export const n: number = 1;\n' };
  expect(stripLearnerTypes(files)).toEqual({ files, plain: [] });
  const ordinary = { 'retry.ts': 'export const n: number = 1;\n' };
  expect(stripLearnerTypes(ordinary)).toEqual({ files: ordinary, plain: [] });
});
