import { describe, expect, test } from 'vitest';
import { AdaptiveThrottle } from '../src/throttle.ts';
import { expectProbability, fakeClock, fixedRandom, withHistory } from './helpers.ts';

describe('the reject probability and admit()', () => {
  test('A1 a new throttle has no history and refuses nothing, even with a draw of 0', () => {
    const clock = fakeClock();
    const random = fixedRandom(0);
    const throttle = new AdaptiveThrottle({ now: clock.now, random: random.draw });
    expect(throttle.requests, 'requests of a new throttle').toBe(0);
    expect(throttle.accepts, 'accepts of a new throttle').toBe(0);
    expectProbability(throttle.rejectProbability(), 0, 'rejectProbability() of a new throttle');
    expect(throttle.admit(), 'first admit() of a new throttle, random() returning 0').toBe(true);
  });

  test('A1 a healthy backend is never throttled: every request accepted, draws of 0 still admit', () => {
    const clock = fakeClock();
    const random = fixedRandom(0);
    const throttle = new AdaptiveThrottle({ now: clock.now, random: random.draw });
    for (let i = 1; i <= 50; i++) {
      expect(throttle.admit(), `admit() number ${i}, every earlier request accepted, random() returning 0`).toBe(true);
      throttle.record(true);
      clock.advance(10);
    }
  });

  test('A1 the default clock and random source work: a throttle built with no options admits', () => {
    const throttle = new AdaptiveThrottle();
    expect(throttle.admit(), 'admit() of new AdaptiveThrottle()').toBe(true);
    expect(throttle.requests, 'requests after one admit() with the default clock').toBe(1);
  });

  test('A2 the probability is max(0, (requests - k * accepts) / (requests + 1))', () => {
    const cases: Array<[number, number, number]> = [
      // requests, accepts, expected with k = 2
      [7, 1, 5 / 8],
      [9, 0, 9 / 10],
      [10, 3, 4 / 11],
      [1000, 300, 400 / 1001],
      [1, 0, 1 / 2],
    ];
    for (const [requests, accepts, expected] of cases) {
      const { throttle } = withHistory(requests, accepts);
      expect(throttle.requests, `requests after ${requests} admitted requests`).toBe(requests);
      expect(throttle.accepts, `accepts after ${accepts} record(true)`).toBe(accepts);
      expectProbability(throttle.rejectProbability(), expected, `rejectProbability() with ${requests} requests and ${accepts} accepts (k 2)`);
    }
  });

  test('A2 the probability never goes below zero', () => {
    const cases: Array<[number, number]> = [
      [3, 2],
      [10, 10],
      [4, 2],
    ];
    for (const [requests, accepts] of cases) {
      const { throttle } = withHistory(requests, accepts);
      expectProbability(throttle.rejectProbability(), 0, `rejectProbability() with ${requests} requests and ${accepts} accepts (k 2)`);
    }
  });

  test('A3 a refused request counts as a request too, and raises the probability', () => {
    const { throttle, random } = withHistory(7, 1);
    random.value = 0; // every draw is below any positive probability: refuse
    for (let i = 1; i <= 5; i++) {
      expect(throttle.admit(), `admit() number ${i} with a draw of 0 and a positive probability`).toBe(false);
    }
    expect(throttle.requests, 'requests after 7 admitted and 5 refused requests').toBe(12);
    expectProbability(throttle.rejectProbability(), 10 / 13, 'rejectProbability() with 12 requests and 1 accept');
  });

  test('A3 admit() decides with the probability from before the call, then counts the request', () => {
    // 7 requests and 1 accept: 5/8 before the call; counting first would make it 6/9.
    const { throttle, random } = withHistory(7, 1);
    random.value = 0.65; // between 5/8 = 0.625 and 6/9 = 0.667
    expect(throttle.admit(), 'admit() with 7 requests, 1 accept and a draw of 0.65 (probability 5/8 before the call)').toBe(true);
    expect(throttle.requests, 'requests after that admit()').toBe(8);
  });

  test('A4 admit() refuses exactly when the draw is below the probability', () => {
    const { throttle, random } = withHistory(7, 1); // probability 5/8 = 0.625
    random.value = 0.625;
    expect(throttle.admit(), 'admit() with probability 0.625 and a draw of 0.625 (not below)').toBe(true);
    const second = withHistory(7, 1);
    second.random.value = 0.624;
    expect(second.throttle.admit(), 'admit() with probability 0.625 and a draw of 0.624 (below)').toBe(false);
    const third = withHistory(7, 1);
    third.random.value = 0.9;
    expect(third.throttle.admit(), 'admit() with probability 0.625 and a draw of 0.9').toBe(true);
  });

  test('A4 over many draws the refused share follows the probability', () => {
    // 9 requests and 0 accepts: 0.9 before the first call. Refusals keep counting, so the
    // probability after n more calls is (9 + n) / (10 + n); draws spread evenly over [0, 1).
    const { throttle, random } = withHistory(9, 0);
    let refused = 0;
    for (let i = 0; i < 100; i++) {
      random.value = ((i * 37) % 100) / 100 + 0.005;
      const p = throttle.rejectProbability();
      const admitted = throttle.admit();
      expect(admitted, `admit() with probability ${p} and a draw of ${random.value}`).toBe(!(random.value < p));
      if (!admitted) refused++;
    }
    expect(refused, 'refusals out of 100 calls at a probability of 0.9 and above').toBeGreaterThan(85);
  });

  test('A7 k is 2 by default, and a given k is used', () => {
    const byDefault = withHistory(10, 4);
    expectProbability(byDefault.throttle.rejectProbability(), 2 / 11, 'rejectProbability() with 10 requests, 4 accepts and the default k');
    const gentle = withHistory(10, 4, { k: 3 });
    expectProbability(gentle.throttle.rejectProbability(), 0, 'rejectProbability() with 10 requests, 4 accepts and k 3');
    const strict = withHistory(10, 4, { k: 1.1 });
    expectProbability(strict.throttle.rejectProbability(), (10 - 1.1 * 4) / 11, 'rejectProbability() with 10 requests, 4 accepts and k 1.1');
    const one = withHistory(10, 4, { k: 1 });
    expectProbability(one.throttle.rejectProbability(), 6 / 11, 'rejectProbability() with 10 requests, 4 accepts and k 1');
  });

  test('A7 admit() decides with the given k, as rejectProbability() does', () => {
    // 10 requests and 4 accepts: a probability of 0 with k 3, 2/11 with k 2, 5.6/11 with k 1.1 and
    // 6/11 with k 1. A throttle that keeps k for rejectProbability() only decides with the wrong one.
    const cases: Array<[k: number | undefined, draw: number, expected: number]> = [
      [3, 0, 0],
      [undefined, 0.1, 2 / 11],
      [undefined, 0.2, 2 / 11],
      [1.1, 0.4, (10 - 1.1 * 4) / 11],
      [1, 0.3, 6 / 11],
      [1, 0.55, 6 / 11],
    ];
    for (const [k, draw, expected] of cases) {
      const { throttle, random } = withHistory(10, 4, k === undefined ? {} : { k });
      const label = k === undefined ? 'the default k' : `k ${k}`;
      expectProbability(throttle.rejectProbability(), expected, `rejectProbability() with 10 requests, 4 accepts and ${label}`);
      random.value = draw;
      const admits = !(draw < expected);
      expect(
        throttle.admit(),
        `admit() with 10 requests, 4 accepts, ${label} and a draw of ${draw} (probability ${expected.toFixed(3)} before the call: ${admits ? 'admit' : 'refuse'})`,
      ).toBe(admits);
    }
  });

  test('A7 with k 2 the backend sees about twice what it accepts', () => {
    // Requests every 5 ms to a backend with capacity for one per 25 ms (a fifth of them, with a
    // small burst allowance): the client should send about twice that, 40% of its requests.
    const clock = fakeClock();
    let capacity = 0;
    let seed = 12345;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const throttle = new AdaptiveThrottle({ now: clock.now, random });
    let sent = 0;
    for (let i = 0; i < 1_000; i++) {
      clock.advance(5);
      capacity = Math.min(4, capacity + 0.2);
      if (!throttle.admit()) continue;
      sent++;
      const accepted = capacity >= 1;
      if (accepted) capacity -= 1;
      throttle.record(accepted);
    }
    const share = sent / 1_000;
    expect(share, 'share of 1,000 requests sent to a backend that accepts a fifth of them (k 2)').toBeGreaterThan(0.35);
    expect(share, 'share of 1,000 requests sent to a backend that accepts a fifth of them (k 2)').toBeLessThan(0.5);
  });
});
