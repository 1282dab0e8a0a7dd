import { describe, test } from 'vitest';
import { equalJitterDelay, exponentialDelay, fullJitterDelay } from '../src/backoff.ts';
import { expectDelay, expectWithin, JUST_BELOW_ONE } from './helpers.ts';

describe('the capped exponential ceiling', () => {
  test('B1 exponentialDelay starts at baseMs and doubles with each failure', () => {
    const doubling: Array<[number, number, number, number]> = [
      [1, 100, 2000, 100],
      [2, 100, 2000, 200],
      [3, 100, 2000, 400],
      [4, 100, 2000, 800],
      [5, 100, 2000, 1600],
      [1, 3, 1000, 3],
      [4, 3, 1000, 24],
      [2, 0.5, 10, 1],
    ];
    for (const [failures, base, cap, expected] of doubling) {
      expectDelay(exponentialDelay(failures, base, cap), expected, `exponentialDelay(${failures}, ${base}, ${cap})`);
    }
  });

  test('B1 exponentialDelay stops at capMs once the doubling passes it', () => {
    const capped: Array<[number, number, number, number]> = [
      [6, 100, 2000, 2000],
      [7, 100, 2000, 2000],
      [5, 100, 1000, 1000],
      [2, 250, 300, 300],
      [3, 100, 150, 150],
      [40, 100, 150, 150],
    ];
    for (const [failures, base, cap, expected] of capped) {
      expectDelay(exponentialDelay(failures, base, cap), expected, `exponentialDelay(${failures}, ${base}, ${cap})`);
    }
  });

  test('B2 exponentialDelay is exactly capMs for huge failure counts', () => {
    for (const failures of [31, 32, 33, 54, 64, 65, 1024, 1025, 1100, 1_000_000]) {
      expectDelay(exponentialDelay(failures, 100, 2000), 2000, `exponentialDelay(${failures}, 100, 2000)`);
    }
  });

  test('B2 jittered delays stay finite numbers between 0 and capMs for huge failure counts', () => {
    for (const failures of [32, 33, 64, 1025, 1_000_000]) {
      for (const r of [0, 0.5, JUST_BELOW_ONE]) {
        const shown = r === JUST_BELOW_ONE ? 'just below 1' : String(r);
        expectWithin(
          fullJitterDelay(failures, 100, 2000, () => r),
          0,
          2000,
          `fullJitterDelay(${failures}, 100, 2000, () => ${shown})`,
        );
        expectWithin(
          equalJitterDelay(failures, 100, 2000, () => r),
          0,
          2000,
          `equalJitterDelay(${failures}, 100, 2000, () => ${shown})`,
        );
      }
    }
  });
});
