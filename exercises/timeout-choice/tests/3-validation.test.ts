import { describe, test } from 'vitest';
import { falseTimeoutRate, percentile, timeoutFor } from '../src/timeout-choice.ts';
import { accepted, expectRangeError } from './helpers.ts';

const GOOD = [40, 35, 90, 41];

describe('validation', () => {
  test('C8 empty samples throw a RangeError that names samples', () => {
    expectRangeError(() => percentile([], 50), 'samples', 'percentile([], 50)');
    expectRangeError(() => timeoutFor([], { falseTimeoutRate: 0.01 }), 'samples', 'timeoutFor([], { falseTimeoutRate: 0.01 })');
    expectRangeError(() => falseTimeoutRate([], 100), 'samples', 'falseTimeoutRate([], 100)');
  });

  test('C8 a NaN, negative or infinite latency throws a RangeError that names samples', () => {
    for (const bad of [Number.NaN, -1, -0.5, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      const samples = [40, 35, bad, 41];
      const shown = `[40, 35, ${bad}, 41]`;
      expectRangeError(() => percentile(samples, 50), 'samples', `percentile(${shown}, 50)`);
      expectRangeError(() => timeoutFor(samples, { falseTimeoutRate: 0.01 }), 'samples', `timeoutFor(${shown}, { falseTimeoutRate: 0.01 })`);
      expectRangeError(() => falseTimeoutRate(samples, 100), 'samples', `falseTimeoutRate(${shown}, 100)`);
    }
  });

  test('C8 zero and fractional latencies are valid', () => {
    accepted(() => percentile([0, 0.25, 3], 50), 'percentile([0, 0.25, 3], 50)');
    accepted(() => timeoutFor([0, 0.25, 3], { falseTimeoutRate: 0.5 }), 'timeoutFor([0, 0.25, 3], { falseTimeoutRate: 0.5 })');
    accepted(() => falseTimeoutRate([0, 0.25, 3], 0), 'falseTimeoutRate([0, 0.25, 3], 0)');
  });

  test('C9 p outside (0, 100] throws a RangeError that names p', () => {
    for (const p of [0, -5, 100.5, 101, Number.NaN, Number.POSITIVE_INFINITY]) {
      expectRangeError(() => percentile(GOOD, p), 'p', `percentile(samples, ${p})`);
    }
    accepted(() => percentile(GOOD, 100), 'percentile(samples, 100)');
  });

  test('C9 falseTimeoutRate outside (0, 1) throws a RangeError that names falseTimeoutRate', () => {
    for (const rate of [0, 1, -0.1, 1.5, 50, Number.NaN]) {
      expectRangeError(() => timeoutFor(GOOD, { falseTimeoutRate: rate }), 'falseTimeoutRate', `timeoutFor(samples, { falseTimeoutRate: ${rate} })`);
    }
    accepted(() => timeoutFor(GOOD, { falseTimeoutRate: 0.999 }), 'timeoutFor(samples, { falseTimeoutRate: 0.999 })');
  });

  test('C9 a negative, NaN or infinite paddingMs throws a RangeError that names paddingMs', () => {
    for (const paddingMs of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expectRangeError(
        () => timeoutFor(GOOD, { falseTimeoutRate: 0.01, paddingMs }),
        'paddingMs',
        `timeoutFor(samples, { falseTimeoutRate: 0.01, paddingMs: ${paddingMs} })`,
      );
    }
  });

  test('C9 a negative or NaN timeoutMs throws a RangeError that names timeoutMs', () => {
    for (const timeoutMs of [-1, -0.001, Number.NaN]) {
      expectRangeError(() => falseTimeoutRate(GOOD, timeoutMs), 'timeoutMs', `falseTimeoutRate(samples, ${timeoutMs})`);
    }
    accepted(() => falseTimeoutRate(GOOD, 0), 'falseTimeoutRate(samples, 0)');
  });
});
