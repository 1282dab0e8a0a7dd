import { describe, expect, test } from 'vitest';
import { backoffDelays, decorrelatedJitterDelay, equalJitterDelay, exponentialDelay, fullJitterDelay, type Strategy } from '../src/backoff.ts';
import { counting, expectAccepted, expectDelay, expectRangeError, sequence } from './helpers.ts';

const DRAWS = [0.1, 0.9, 0.5, 0.3, 0.7, 0.2, 0.6];
const list = (xs: unknown) => (Array.isArray(xs) ? `[${xs.map((x) => (typeof x === 'number' ? +x.toFixed(6) : String(x))).join(', ')}]` : String(xs));

function expectWaits(actual: unknown, expected: number[], call: string) {
  if (!Array.isArray(actual)) expect.fail(`${call} returned ${list(actual)}, expected an array of ${expected.length} waits`);
  const waits = actual as unknown[];
  if (waits.length !== expected.length) expect.fail(`${call} returned ${list(waits)}: ${waits.length} waits, expected ${expected.length}`);
  waits.forEach((w, i) => {
    expectDelay(w, expected[i]!, `wait ${i + 1} of ${call} (all waits: ${list(waits)}, expected ${list(expected)})`);
  });
}

describe('schedules, randomness and validation', () => {
  // The expected schedules come from your own delay functions, so a wrong formula is reported by
  // its own rule (B1, B3, B4, B5) and B6 only judges how the schedule strings the delays together.
  test("B6 backoffDelays gives one wait per retry, each the strategy's delay for that failure count", () => {
    const single: Record<Exclude<Strategy, 'decorrelated'>, (failures: number, r: number) => number> = {
      none: (failures) => exponentialDelay(failures, 100, 2000),
      full: (failures, r) => fullJitterDelay(failures, 100, 2000, () => r),
      equal: (failures, r) => equalJitterDelay(failures, 100, 2000, () => r),
    };
    for (const strategy of ['none', 'full', 'equal'] as const) {
      const expected = DRAWS.map((r, i) => single[strategy](i + 1, r));
      const call = `backoffDelays('${strategy}', 7, 100, 2000, random) with random() returning ${list(DRAWS)}`;
      expectWaits(backoffDelays(strategy, 7, 100, 2000, sequence(DRAWS)), expected, call);
    }
    for (const strategy of ['none', 'full', 'equal', 'decorrelated'] as const) {
      expectWaits(backoffDelays(strategy, 0, 100, 2000, sequence(DRAWS)), [], `backoffDelays('${strategy}', 0, 100, 2000, random)`);
    }
  });

  test('B6 a decorrelated schedule starts from previous = baseMs and walks from each capped wait', () => {
    for (const [draws, base, cap] of [
      [[0.99, 0.99, 0.99, 0.1, 0.5, 0, 0.4], 100, 1000],
      [DRAWS, 100, 2000],
      [[0, 0, 0], 50, 400],
    ] as Array<[number[], number, number]>) {
      const expected: number[] = [];
      let previous = base;
      for (const r of draws) expected.push((previous = decorrelatedJitterDelay(previous, base, cap, () => r)));
      const call = `backoffDelays('decorrelated', ${draws.length}, ${base}, ${cap}, random) with random() returning ${list(draws)}`;
      expectWaits(backoffDelays('decorrelated', draws.length, base, cap, sequence(draws)), expected, call);
    }
  });

  test('B7 each jittered delay calls the given random exactly once, and exponentialDelay never does', () => {
    const calls: Array<[string, (random: () => number) => unknown, number]> = [
      ['fullJitterDelay(3, 100, 2000, random)', (r) => fullJitterDelay(3, 100, 2000, r), 1],
      ['equalJitterDelay(3, 100, 2000, random)', (r) => equalJitterDelay(3, 100, 2000, r), 1],
      ['decorrelatedJitterDelay(300, 100, 2000, random)', (r) => decorrelatedJitterDelay(300, 100, 2000, r), 1],
      ["backoffDelays('full', 5, 100, 2000, random)", (r) => backoffDelays('full', 5, 100, 2000, r), 5],
      ["backoffDelays('equal', 5, 100, 2000, random)", (r) => backoffDelays('equal', 5, 100, 2000, r), 5],
      ["backoffDelays('decorrelated', 5, 100, 2000, random)", (r) => backoffDelays('decorrelated', 5, 100, 2000, r), 5],
      ["backoffDelays('none', 5, 100, 2000, random)", (r) => backoffDelays('none', 5, 100, 2000, r), 0],
    ];
    for (const [call, run, times] of calls) {
      const c = counting(() => 0.5);
      run(c.random);
      if (c.calls !== times) expect.fail(`${call} called random() ${c.calls} times, expected ${times}`);
    }
  });

  test('B7 Math.random is never called', () => {
    const original = Math.random;
    let used = 0;
    Math.random = () => (used++, original());
    try {
      fullJitterDelay(2, 100, 2000, () => 0.5);
      equalJitterDelay(2, 100, 2000, () => 0.5);
      decorrelatedJitterDelay(300, 100, 2000, () => 0.5);
      exponentialDelay(2, 100, 2000);
      for (const strategy of ['none', 'full', 'equal', 'decorrelated'] as const) backoffDelays(strategy, 4, 100, 2000, () => 0.5);
    } finally {
      Math.random = original;
    }
    if (used > 0) expect.fail(`Math.random was called ${used} times although every function was given a random() of its own`);
  });

  test('B8 invalid baseMs or capMs throws a RangeError from every function', () => {
    const r = () => 0.5;
    for (const [base, cap] of [
      [0, 2000],
      [-100, 2000],
      [NaN, 2000],
      [Infinity, Infinity],
      [100, 50],
      [100, NaN],
      [100, Infinity],
    ]) {
      expectRangeError(() => exponentialDelay(2, base!, cap!), `exponentialDelay(2, ${base}, ${cap})`);
      expectRangeError(() => fullJitterDelay(2, base!, cap!, r), `fullJitterDelay(2, ${base}, ${cap}, random)`);
      expectRangeError(() => equalJitterDelay(2, base!, cap!, r), `equalJitterDelay(2, ${base}, ${cap}, random)`);
      expectRangeError(() => decorrelatedJitterDelay(300, base!, cap!, r), `decorrelatedJitterDelay(300, ${base}, ${cap}, random)`);
      expectRangeError(() => backoffDelays('full', 3, base!, cap!, r), `backoffDelays('full', 3, ${base}, ${cap}, random)`);
      expectRangeError(() => backoffDelays('none', 0, base!, cap!, r), `backoffDelays('none', 0, ${base}, ${cap}, random)`);
    }
  });

  test('B8 invalid failures, previousMs, retries or strategy throws a RangeError', () => {
    const r = () => 0.5;
    for (const failures of [0, -1, 1.5, NaN, Infinity]) {
      expectRangeError(() => exponentialDelay(failures, 100, 2000), `exponentialDelay(${failures}, 100, 2000)`);
      expectRangeError(() => fullJitterDelay(failures, 100, 2000, r), `fullJitterDelay(${failures}, 100, 2000, random)`);
      expectRangeError(() => equalJitterDelay(failures, 100, 2000, r), `equalJitterDelay(${failures}, 100, 2000, random)`);
    }
    for (const previous of [50, 0, -1, NaN, Infinity]) {
      expectRangeError(() => decorrelatedJitterDelay(previous, 100, 2000, r), `decorrelatedJitterDelay(${previous}, 100, 2000, random)`);
    }
    for (const retries of [-1, 2.5, NaN]) {
      expectRangeError(() => backoffDelays('full', retries, 100, 2000, r), `backoffDelays('full', ${retries}, 100, 2000, random)`);
    }
    for (const retries of [3, 0]) {
      const strategy = 'linear' as Strategy;
      expectRangeError(() => backoffDelays(strategy, retries, 100, 2000, r), `backoffDelays('linear', ${retries}, 100, 2000, random)`);
    }
    // One of the four names exactly as the API spells them: no other case, no spaces around.
    for (const name of ['FULL', 'Equal', ' full', 'none ']) {
      const strategy = name as Strategy;
      expectRangeError(
        () => backoffDelays(strategy, 3, 100, 2000, r),
        `backoffDelays(${JSON.stringify(name)}, 3, 100, 2000, random) (the names are 'none', 'full', 'equal' and 'decorrelated', exactly)`,
      );
    }
  });

  test('B8 valid edge values are accepted', () => {
    const r = () => 0.5;
    expectAccepted(() => exponentialDelay(3, 100, 100), 'exponentialDelay(3, 100, 100) (capMs equal to baseMs)');
    expectAccepted(() => exponentialDelay(1, 0.25, 0.25), 'exponentialDelay(1, 0.25, 0.25) (a fractional baseMs)');
    expectAccepted(() => fullJitterDelay(2, 100, 100, r), 'fullJitterDelay(2, 100, 100, random)');
    expectAccepted(() => equalJitterDelay(2, 100, 100, r), 'equalJitterDelay(2, 100, 100, random)');
    expectAccepted(() => decorrelatedJitterDelay(100, 100, 2000, r), 'decorrelatedJitterDelay(100, 100, 2000, random) (previousMs equal to baseMs)');
    expectAccepted(() => decorrelatedJitterDelay(5000, 100, 2000, r), 'decorrelatedJitterDelay(5000, 100, 2000, random) (previousMs above capMs)');
    for (const strategy of ['none', 'full', 'equal', 'decorrelated'] as const) {
      expectAccepted(() => backoffDelays(strategy, 3, 100, 100, r), `backoffDelays('${strategy}', 3, 100, 100, random)`);
    }
  });
});
