import { describe, expect, test } from 'vitest';
import { falseTimeoutRate, percentile, timeoutFor } from '../src/timeout-choice.ts';
import { expectSample, LESSON, seeded, show, shuffled } from './helpers.ts';

describe('percentile', () => {
  test('C1 picks the sample at rank ceil(p / 100 × n) of four samples', () => {
    const samples = [10, 20, 30, 40];
    for (const [p, ...want] of [
      [26, 20],
      [51, 30],
      [60, 30],
      [80, 40],
      [25, 10, 20],
      [50, 20, 30],
      [75, 30, 40],
    ]) {
      expectSample(percentile(samples, p!), want, p!, samples.length, `percentile(${show(samples)}, ${p})`);
    }
    // 99.9 / 100 * 1000 is 999.0000000000001: the 999th sample, or the 1000th.
    const thousand = Array.from({ length: 1000 }, (_, i) => i + 1);
    expectSample(percentile(thousand, 99.9), [999, 1000], 99.9, 1000, 'percentile([1, 2, 3, … 1000], 99.9)');
  });

  test('C1 matches the worked example of the lesson (20 samples)', () => {
    for (const [p, ...want] of [
      [42, 39],
      [47, 40],
      [88, 63],
      [93, 90],
      [99, 240],
      [10, 33, 34],
      [50, 40, 41],
      [90, 63, 90],
      [95, 90, 240],
    ]) {
      expectSample(percentile(LESSON, p!), want, p!, LESSON.length, `p${p} of the lesson's 20 samples`);
    }
  });

  test('C1 never invents a value between two samples', () => {
    expect(percentile([1, 1000], 40), 'percentile([1, 1000], 40): the 1st of 2 samples').toBe(1);
    expect(percentile([100, 200, 300], 50), 'percentile([100, 200, 300], 50)').toBe(200);
    expect(percentile([100, 200, 300], 67), 'percentile([100, 200, 300], 67)').toBe(300);
  });

  test('C2 sorts numerically, whatever the input order', () => {
    const samples = [100, 9, 25, 1000, 3];
    for (const [p, want] of [
      [15, 3],
      [35, 9],
      [55, 25],
      [75, 100],
    ] as const) {
      expect(percentile(samples, p), `percentile(${show(samples)}, ${p}): as numbers, 3 < 9 < 25 < 100 < 1000`).toBe(want);
    }
    const mixed = shuffled(LESSON, 7);
    for (const [p, want] of [
      [47, 40],
      [88, 63],
      [93, 90],
    ] as const) {
      expect(percentile(mixed, p), `p${p} of the lesson's samples in the order ${show(mixed)}`).toBe(want);
    }
  });

  test('C2 counts every duplicate as its own sample', () => {
    const samples = [50, 10, 50, 50, 10, 90];
    for (const [p, want] of [
      [33, 10],
      [34, 50],
      [83, 50],
      [84, 90],
    ] as const) {
      expect(percentile(samples, p), `percentile(${show(samples)}, ${p}) (sorted: 10 10 50 50 50 90)`).toBe(want);
    }
  });

  test('C3 p = 100 is the largest sample', () => {
    expect(percentile(LESSON, 100), "p100 of the lesson's samples").toBe(240);
    expect(percentile([7, 300, 2], 100), 'percentile([7, 300, 2], 100)').toBe(300);
    const random = seeded(3);
    const many = Array.from({ length: 1234 }, () => Math.round(random() * 5000));
    expect(percentile(many, 100), 'p100 of 1,234 random samples').toBe(Math.max(...many));
  });

  test('C3 a tiny p is the smallest sample, and one sample is every percentile', () => {
    for (const p of [1e-9, 0.001, 1]) {
      expect(percentile([70, 12, 45, 300], p), `percentile([70, 12, 45, 300], ${p})`).toBe(12);
    }
    for (const p of [1e-6, 50, 99.9, 100]) expect(percentile([42], p), `percentile([42], ${p})`).toBe(42);
  });

  test('C4 percentile leaves the caller’s array as it was', () => {
    const samples = [300, 20, 55, 1000, 7];
    percentile(samples, 50);
    percentile(samples, 100);
    expect(samples, 'the array after percentile(samples, 50) and percentile(samples, 100)').toEqual([300, 20, 55, 1000, 7]);
    const frozen = Object.freeze([300, 20, 55, 1000, 7]);
    let got: unknown;
    try {
      got = percentile(frozen, 50);
    } catch (err) {
      expect.fail(`percentile on a frozen (read-only) array threw ${(err as Error).name}: ${(err as Error).message}; sort a copy instead`);
    }
    // The same answer as for an ordinary array (whether that answer is right is C1's and C2's business).
    expect(got, 'percentile(Object.freeze([300, 20, 55, 1000, 7]), 50), compared with your percentile([300, 20, 55, 1000, 7], 50)').toBe(
      percentile([300, 20, 55, 1000, 7], 50),
    );
  });

  test('C4 timeoutFor and falseTimeoutRate leave the caller’s array as it was', () => {
    const samples = [300, 20, 55, 1000, 7];
    timeoutFor(samples, { falseTimeoutRate: 0.1, paddingMs: 5 });
    falseTimeoutRate(samples, 50);
    expect(samples, 'the array after timeoutFor and falseTimeoutRate').toEqual([300, 20, 55, 1000, 7]);
    const frozen = Object.freeze([300, 20, 55, 1000, 7]);
    try {
      timeoutFor(frozen, { falseTimeoutRate: 0.1 });
      falseTimeoutRate(frozen, 50);
    } catch (err) {
      expect.fail(`timeoutFor or falseTimeoutRate on a frozen (read-only) array threw ${(err as Error).name}: ${(err as Error).message}`);
    }
  });
});
