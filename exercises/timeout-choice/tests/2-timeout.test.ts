import { describe, expect, test } from 'vitest';
import { falseTimeoutRate, timeoutFor } from '../src/timeout-choice.ts';
import { LESSON, latencies, onRankEdge, seeded, show, shuffled } from './helpers.ts';

// 1,500 distinct latencies, 20 ms to 1,519 ms, in a scrambled order: p99 is 1,504 ms, p99.9 is 1,518 ms.
const RAMP = shuffled(
  Array.from({ length: 1500 }, (_, i) => 20 + i),
  11,
);

describe('timeoutFor', () => {
  test('C5 a rate of 0.001 (0.1 %) reads p99.9', () => {
    expect(
      timeoutFor(RAMP, { falseTimeoutRate: 0.001 }),
      'timeoutFor(1,500 samples from 20 to 1519 ms, { falseTimeoutRate: 0.001 }): p99.9 is 1518, p99 would be 1504',
    ).toBe(1518);
    expect(timeoutFor(RAMP, { falseTimeoutRate: 0.015 }), 'the same samples with falseTimeoutRate 0.015 (1.5 %): p98.5').toBe(1497);
    expect(timeoutFor(RAMP, { falseTimeoutRate: 0.333 }), 'the same samples with falseTimeoutRate 0.333: p66.7').toBe(1020);
  });

  test('C5 adds paddingMs after the percentile', () => {
    const samples = shuffled(LESSON, 5);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.07, paddingMs: 30 }), "the lesson's samples, rate 0.07 (p93 = 90 ms) + 30 ms").toBe(120);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.12, paddingMs: 20 }), "the lesson's samples, rate 0.12 (p88 = 63 ms) + 20 ms").toBe(83);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.12, paddingMs: 0 }), 'the same with paddingMs 0').toBe(63);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.12 }), 'the same without paddingMs (default 0)').toBe(63);
  });

  test('C5 rounds the padded value up to a whole millisecond', () => {
    const samples = [12.2, 180.2, 40.5, 39.9, 41.1, 38.4, 44.8, 47.3, 36.6, 35.1];
    expect(timeoutFor(samples, { falseTimeoutRate: 0.05 }), `timeoutFor(${show(samples)}, { falseTimeoutRate: 0.05 }): p95 = 180.2`).toBe(181);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.05, paddingMs: 19 }), 'the same with paddingMs 19: 199.2 rounded up').toBe(200);
    expect(timeoutFor(samples, { falseTimeoutRate: 0.45 }), 'the same with falseTimeoutRate 0.45: p55 = 40.5').toBe(41);
    // A fractional padding is added before rounding, not after it.
    expect(timeoutFor(samples, { falseTimeoutRate: 0.05, paddingMs: 0.5 }), 'the same with falseTimeoutRate 0.05 and paddingMs 0.5: 180.7 rounded up').toBe(
      181,
    );
    expect(timeoutFor(samples, { falseTimeoutRate: 0.05, paddingMs: 19.9 }), 'the same with paddingMs 19.9: 200.1 rounded up').toBe(201);
    expect(timeoutFor(LESSON, { falseTimeoutRate: 0.07, paddingMs: 2.5 }), "the lesson's samples, rate 0.07 (p93 = 90 ms) + 2.5 ms: 92.5 rounded up").toBe(93);
  });

  test('C5 a rate below 1 / n selects the largest sample', () => {
    expect(timeoutFor(LESSON, { falseTimeoutRate: 0.01 }), "the lesson's 20 samples with falseTimeoutRate 0.01").toBe(240);
    expect(timeoutFor(LESSON, { falseTimeoutRate: 0.001, paddingMs: 10 }), 'the same with 0.001 and 10 ms of padding').toBe(250);
  });
});

describe('falseTimeoutRate', () => {
  test('C6 returns the fraction (0 to 1) of samples above the timeout', () => {
    const samples = shuffled(LESSON, 9);
    for (const [timeout, want] of [
      [60, 0.15],
      [100, 0.05],
      [240, 0],
      [1000, 0],
      [0, 1],
      [30.5, 1],
    ] as const) {
      const above = Math.round(want * 20);
      expect(
        falseTimeoutRate(samples, timeout),
        `falseTimeoutRate(the lesson's 20 samples, ${timeout}): ${above} of 20 are above ${timeout}, a fraction of ${want}`,
      ).toBeCloseTo(want, 12);
    }
    // The exact fraction, not a rounded one: 1 of 3 is 1 / 3.
    const three = [20.7, 10.2, 20.5];
    for (const [timeout, above] of [
      [20.6, 1],
      [15, 2],
      [10, 3],
    ] as const) {
      expect(
        falseTimeoutRate(three, timeout),
        `falseTimeoutRate(${show(three)}, ${timeout}): ${above} of 3 are above ${timeout}, exactly ${above} / 3 = ${above / 3}`,
      ).toBeCloseTo(above / 3, 12);
    }
  });

  test('C6 a sample equal to the timeout is not cut', () => {
    const samples = [20, 10, 20, 30, 20];
    for (const [timeout, want] of [
      [20, 0.2],
      [30, 0],
      [10, 0.8],
      [19.9, 0.8],
    ] as const) {
      expect(falseTimeoutRate(samples, timeout), `falseTimeoutRate(${show(samples)}, ${timeout}): only samples strictly above it count`).toBeCloseTo(want, 12);
    }
    // Fractional samples count as they were measured, not rounded to a whole millisecond.
    const fractional = [20.25, 20.75, 20.5, 19.5];
    for (const [timeout, want] of [
      [20.5, 0.25],
      [20.25, 0.5],
      [20.6, 0.25],
      [19.6, 0.75],
    ] as const) {
      expect(
        falseTimeoutRate(fractional, timeout),
        `falseTimeoutRate(${show(fractional)}, ${timeout}): only samples strictly above ${timeout}, as measured (not rounded), count`,
      ).toBeCloseTo(want, 12);
    }
  });
});

describe('round trip', () => {
  test('C7 the timeout for a target never cuts more than the target, and is the smallest that does not', () => {
    const random = seeded(2024);
    const rates = [0.5, 0.2, 0.1, 0.05, 0.02, 0.01, 0.005, 0.001, 0.0005, 0.0001];
    for (let round = 0; round < 160; round++) {
      const n = 1 + Math.floor(random() * random() * 2500);
      const whole = round % 2 === 0;
      const samples = latencies(random, n, whole);
      const rate = rates[round % rates.length]!;
      const what = `round ${round}: ${n} ${whole ? 'whole' : 'fractional'} latencies, falseTimeoutRate ${rate}`;
      const timeout = timeoutFor(samples, { falseTimeoutRate: rate });
      const cut = samples.filter((ms) => ms > timeout).length;
      expect(cut / n, `${what}: share of samples above your timeout ${timeout} ms (counted by the test)`).toBeLessThanOrEqual(rate);
      expect(falseTimeoutRate(samples, timeout), `${what}: your falseTimeoutRate(samples, ${timeout})`).toBeLessThanOrEqual(rate);
      if (onRankEdge(rate, n)) continue;
      const cutOneLess = samples.filter((ms) => ms > timeout - 1).length;
      expect(
        cutOneLess / n,
        `${what}: one millisecond less (${timeout - 1} ms) should already cut more than the target, so ${timeout} is not the smallest timeout`,
      ).toBeGreaterThan(rate);
    }
  });
});
