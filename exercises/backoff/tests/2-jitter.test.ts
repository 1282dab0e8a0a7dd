import { describe, test } from 'vitest';
import { decorrelatedJitterDelay, equalJitterDelay, fullJitterDelay } from '../src/backoff.ts';
import { ceiling, expectDelay, expectWithin, JUST_BELOW_ONE, seeded } from './helpers.ts';

// [failures, baseMs, capMs] covering doubling, the cap, an odd ceiling and a fractional base.
const SHAPES: Array<[number, number, number]> = [
  [1, 100, 2000],
  [3, 100, 2000],
  [5, 100, 2000],
  [6, 100, 2000],
  [12, 100, 2000],
  [1, 5, 100],
  [2, 7, 500],
  [4, 0.75, 30],
];

describe('the three jitter formulas', () => {
  test('B3 fullJitterDelay is random() times the capped ceiling', () => {
    const cases: Array<[number, number, number, number, number]> = [
      [1, 100, 2000, 0.5, 50],
      [3, 100, 2000, 0.25, 100],
      [5, 100, 2000, 0.123, 196.8],
      [6, 100, 2000, 0.5, 1000],
      [3, 100, 2000, 0, 0],
      [2, 7, 500, 0.3, 4.2],
    ];
    for (const [failures, base, cap, r, expected] of cases) {
      expectDelay(
        fullJitterDelay(failures, base, cap, () => r),
        expected,
        `fullJitterDelay(${failures}, ${base}, ${cap}, () => ${r})`,
      );
    }
  });

  test('B3 fullJitterDelay spans 0 to the ceiling and never leaves it', () => {
    const random = seeded(42);
    for (const [failures, base, cap] of SHAPES) {
      const t = ceiling(failures, base, cap);
      const call = `fullJitterDelay(${failures}, ${base}, ${cap}, random)`;
      expectDelay(
        fullJitterDelay(failures, base, cap, () => 0),
        0,
        `${call} with random() = 0`,
      );
      const top = fullJitterDelay(failures, base, cap, () => JUST_BELOW_ONE);
      expectWithin(top, t * 0.999999, t, `${call} with random() just below 1`);
      for (let i = 0; i < 300; i++) expectWithin(fullJitterDelay(failures, base, cap, random), 0, t, `${call} with a seeded random()`);
    }
  });

  test('B4 equalJitterDelay is half the ceiling plus random() times the other half', () => {
    const cases: Array<[number, number, number, number, number]> = [
      [1, 100, 2000, 0.5, 75],
      [3, 100, 2000, 0, 200],
      [3, 100, 2000, 0.5, 300],
      [7, 100, 2000, 0.5, 1500],
      [1, 5, 100, 0, 2.5],
      [2, 5, 100, 0.3, 6.5],
    ];
    for (const [failures, base, cap, r, expected] of cases) {
      expectDelay(
        equalJitterDelay(failures, base, cap, () => r),
        expected,
        `equalJitterDelay(${failures}, ${base}, ${cap}, () => ${r})`,
      );
    }
  });

  test('B4 equalJitterDelay never falls below half the ceiling nor rises above it', () => {
    const random = seeded(7);
    for (const [failures, base, cap] of SHAPES) {
      const t = ceiling(failures, base, cap);
      const call = `equalJitterDelay(${failures}, ${base}, ${cap}, random)`;
      expectDelay(
        equalJitterDelay(failures, base, cap, () => 0),
        t / 2,
        `${call} with random() = 0`,
      );
      expectWithin(
        equalJitterDelay(failures, base, cap, () => JUST_BELOW_ONE),
        t * 0.999999,
        t,
        `${call} with random() just below 1`,
      );
      for (let i = 0; i < 300; i++) expectWithin(equalJitterDelay(failures, base, cap, random), t / 2, t, `${call} with a seeded random()`);
    }
  });

  test('B5 decorrelatedJitterDelay is min(capMs, a random value between baseMs and 3 × previousMs)', () => {
    const cases: Array<[number, number, number, number, number]> = [
      [150, 100, 2000, 0, 100],
      [150, 100, 2000, 0.5, 275],
      [900, 100, 2000, 0.5, 1400],
      [100, 100, 2000, 0.5, 200],
      [900, 100, 2000, JUST_BELOW_ONE, 2000],
      [5000, 100, 2000, 0.5, 2000],
      [10, 10, 25, 0.8, 25],
    ];
    for (const [previous, base, cap, r, expected] of cases) {
      const shown = r === JUST_BELOW_ONE ? 'just below 1' : String(r);
      expectDelay(
        decorrelatedJitterDelay(previous, base, cap, () => r),
        expected,
        `decorrelatedJitterDelay(${previous}, ${base}, ${cap}, () => ${shown})`,
      );
    }
  });

  test('B5 decorrelatedJitterDelay stays between baseMs and min(capMs, 3 × previousMs)', () => {
    const random = seeded(2015);
    for (const [previous, base, cap] of [
      [100, 100, 2000],
      [150, 100, 2000],
      [640, 100, 2000],
      [1999, 100, 2000],
      [7, 7, 500],
      [30, 0.75, 30],
    ] as Array<[number, number, number]>) {
      const hi = Math.min(cap, previous * 3);
      const call = `decorrelatedJitterDelay(${previous}, ${base}, ${cap}, random)`;
      expectDelay(
        decorrelatedJitterDelay(previous, base, cap, () => 0),
        base,
        `${call} with random() = 0`,
      );
      expectWithin(
        decorrelatedJitterDelay(previous, base, cap, () => JUST_BELOW_ONE),
        hi - (hi - base) * 1e-6,
        hi,
        `${call} with random() just below 1`,
      );
      for (let i = 0; i < 300; i++) expectWithin(decorrelatedJitterDelay(previous, base, cap, random), base, hi, `${call} with a seeded random()`);
    }
  });
});
