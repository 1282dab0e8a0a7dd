// A buggy variant is a patch against the reference: it must apply exactly or fail loudly, and its
// header must name the rules it breaks and the mistake.
import { describe, expect, test } from 'vitest';
import { applyVariantPatch, parseVariantPatch, PatchError } from './variant-patch.ts';

const reference = { 'retry.ts': 'export function shouldRetry(status: number) {\n  return status >= 500;\n}\n', 'other.ts': 'export {};\n' };
const diff = `--- a/retry.ts
+++ b/retry.ts
@@ -1,3 +1,3 @@
 export function shouldRetry(status: number) {
-  return status >= 500;
+  return status >= 400;
 }
`;
const text = `Breaks: R2, R3\nBug: retries a 4xx as if the server might change its mind.\nWhy: "retry on error" is the first thing\n  anyone writes.\n\n${diff}`;

describe('buggy variants as patches', () => {
  test('reads the rules, the bug and the why (continued on an indented line), and applies the diff to that file only', () => {
    const patch = parseVariantPatch(text, 'x.patch');
    expect(patch.breaks).toEqual(['R2', 'R3']);
    expect(patch.bug).toBe('retries a 4xx as if the server might change its mind.');
    expect(patch.why).toBe('"retry on error" is the first thing anyone writes.');
    const files = applyVariantPatch(patch, reference, 'x.patch');
    expect(files['retry.ts']).toContain('status >= 400');
    expect(files['other.ts']).toBe(reference['other.ts']);
  });

  test('a patch the reference has moved away from fails, naming the file, instead of grading something else', () => {
    const moved = { ...reference, 'retry.ts': reference['retry.ts'].replace('500', '499') };
    expect(() => applyVariantPatch(parseVariantPatch(text, 'x.patch'), moved, 'x.patch')).toThrow(/x\.patch: no longer applies to the reference's retry\.ts/);
  });

  test('a header without rules or without the bug, a stray line, no diff, or a file the reference lacks is refused', () => {
    expect(() => parseVariantPatch(`Bug: b\n\n${diff}`, 'p')).toThrow(PatchError);
    expect(() => parseVariantPatch(`Breaks: R1\n\n${diff}`, 'p')).toThrow(/Bug:/);
    expect(() => parseVariantPatch(`Breaks: R1\nBug: b\nfree text\n\n${diff}`, 'p')).toThrow(/Key: value/);
    expect(() => parseVariantPatch('Breaks: R1\nBug: b\n', 'p')).toThrow(/no unified diff/);
    const elsewhere = parseVariantPatch(text.replaceAll('retry.ts', 'nope.ts'), 'p');
    expect(() => applyVariantPatch(elsewhere, reference, 'p')).toThrow(/nope\.ts, which the reference does not have/);
  });
});
