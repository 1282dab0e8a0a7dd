import { describe, expect, it } from 'vitest';
import { defaults, parseAssignments, toAssignments, validateParams } from './params.ts';
import type { ParamSpec } from './types.ts';

const specs: ParamSpec[] = [
  { key: 'n', kind: 'int', min: 1, max: 10, default: 3, label: { vi: 'Số lần', en: 'Count' } },
  { key: 'x', kind: 'number', min: 0, max: 1, default: 0.5, label: { vi: 'Tỷ lệ', en: 'Ratio' } },
  {
    key: 'mode',
    kind: 'select',
    default: 'a',
    options: [
      { value: 'a', label: { vi: 'A', en: 'A' } },
      { value: 'b', label: { vi: 'B', en: 'B' } },
    ],
    label: { vi: 'Chế độ', en: 'Mode' },
  },
  { key: 'on', kind: 'boolean', default: false, label: { vi: 'Bật', en: 'On' } },
];

const errorsOf = (v: ReturnType<typeof validateParams>): string[] => (v.ok ? [] : v.errors.map((e) => e.en));

describe('validateParams', () => {
  it('fills in defaults for missing keys', () => {
    expect(validateParams(specs, {})).toEqual({ ok: true, params: defaults(specs) });
    expect(validateParams(specs, { n: 5 })).toEqual({ ok: true, params: { ...defaults(specs), n: 5 } });
  });

  it('rejects unknown keys, naming the valid ones, in both languages', () => {
    const v = validateParams(specs, { nope: 1 });
    expect(v.ok).toBe(false);
    if (v.ok) return;
    expect(v.errors[0]!.en).toContain('Unknown parameter "nope"');
    expect(v.errors[0]!.en).toContain('n, x, mode, on');
    expect(v.errors[0]!.vi).toContain('Không có tham số "nope"');
  });

  it('rejects out-of-range, non-integer, wrongly typed and unlisted values', () => {
    expect(errorsOf(validateParams(specs, { n: 11 }))[0]).toMatch(/between 1 and 10/);
    expect(errorsOf(validateParams(specs, { n: 0 }))[0]).toMatch(/between 1 and 10/);
    expect(errorsOf(validateParams(specs, { n: 2.5 }))[0]).toMatch(/integer/);
    expect(errorsOf(validateParams(specs, { x: Number.NaN }))[0]).toMatch(/number/);
    expect(errorsOf(validateParams(specs, { x: '0.3' }))[0]).toMatch(/number/);
    expect(errorsOf(validateParams(specs, { mode: 'c' }))[0]).toMatch(/one of: a, b/);
    expect(errorsOf(validateParams(specs, { on: 'yes' }))[0]).toMatch(/true or false/);
    expect(errorsOf(validateParams(specs, { n: 0, x: 2 }))).toHaveLength(2);
  });
});

describe('parseAssignments', () => {
  it('turns key=value strings into typed values', () => {
    expect(parseAssignments(specs, ['n=7', 'x=0.25', 'mode=b', 'on=true'])).toEqual({ ok: true, params: { n: 7, x: 0.25, mode: 'b', on: true } });
  });

  it('reports malformed assignments, bad values and unknown keys', () => {
    expect(errorsOf(parseAssignments(specs, ['n']))[0]).toMatch(/key=value/);
    expect(errorsOf(parseAssignments(specs, ['n=abc']))[0]).toMatch(/not valid for parameter "n"/);
    expect(errorsOf(parseAssignments(specs, ['n=']))[0]).toMatch(/not valid/);
    expect(errorsOf(parseAssignments(specs, ['on=maybe']))[0]).toMatch(/not valid/);
    expect(errorsOf(parseAssignments(specs, ['zzz=1']))[0]).toMatch(/Unknown parameter "zzz"/);
  });
});

describe('toAssignments', () => {
  it('keeps only the changed parameters, and parses back to the same values', () => {
    const params = { ...defaults(specs), n: 9, mode: 'b', on: true };
    const line = toAssignments(specs, params);
    expect(line).toEqual(['n=9', 'mode=b', 'on=true']);
    expect(parseAssignments(specs, line)).toEqual({ ok: true, params });
    expect(toAssignments(specs, defaults(specs))).toEqual([]);
  });
});
