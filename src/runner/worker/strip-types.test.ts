import { describe, expect, test } from 'vitest';
import { locateError } from '../../grading/core/location.ts';
import { LearnerSyntaxError, stripTypes } from './strip-types.ts';

describe('stripTypes', () => {
  test('removes types, keeps every line where it was, and names the module after its sandbox path', () => {
    const source = 'export enum Kind { A, B }\nexport function f<T>(x: T, y?: number): T {\n  return x as T;\n}\nexport type N = number;\n';
    const code = stripTypes('retry.ts', source);
    expect(code).not.toMatch(/: T|as T|type N/);
    expect(code.split('\n')[1]).toMatch(/^export function f\(x, y\)/);
    expect(code).toContain('//# sourceURL=file:///exercise/src/retry.ts');
  });

  test('a syntax error names the file, line and column the way the report reads them', () => {
    const err = (() => {
      try {
        stripTypes('retry.ts', 'const a = 1;\nexport function g(x: number) {\n  return x +;\n}\n');
      } catch (e) {
        return e;
      }
    })() as Error;
    expect(err).toBeInstanceOf(LearnerSyntaxError);
    expect(locateError(err, ['retry.ts'])).toMatchObject({ file: 'retry.ts', line: 3, column: 13 });
  });
});
