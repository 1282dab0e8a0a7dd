// The learner's TypeScript made plain in the grader: types erased in place, everything else left to
// the learner's process.
import { expect, test } from 'vitest';
import { stripLearnerTypes } from './strict-strip.ts';

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
