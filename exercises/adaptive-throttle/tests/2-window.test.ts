import { describe, expect, test } from 'vitest';
import { AdaptiveThrottle } from '../src/throttle.ts';
import { ALWAYS_ADMIT, expectProbability, fakeClock, fixedRandom, withHistory } from './helpers.ts';

describe('record() and the sliding window', () => {
  test('A5 record(true) adds one accept and no request', () => {
    const { throttle } = withHistory(6, 0);
    throttle.record(true);
    expect(throttle.accepts, 'accepts after one record(true)').toBe(1);
    expect(throttle.requests, 'requests after 6 admit() and one record(true)').toBe(6);
    throttle.record(true);
    expect(throttle.accepts, 'accepts after two record(true)').toBe(2);
    expectProbability(throttle.rejectProbability(), 2 / 7, 'rejectProbability() with 6 requests and 2 accepts');
  });

  test('A5 record(false) changes neither count: admit() already counted the request', () => {
    const { throttle } = withHistory(6, 1);
    for (let i = 0; i < 4; i++) throttle.record(false);
    expect(throttle.accepts, 'accepts after four record(false)').toBe(1);
    expect(throttle.requests, 'requests after four record(false)').toBe(6);
    expectProbability(throttle.rejectProbability(), 4 / 7, 'rejectProbability() with 6 requests and 1 accept');
  });

  test('A6 a request counts while it is less than windowMs old, and not from windowMs on', () => {
    const clock = fakeClock(0);
    const random = fixedRandom(ALWAYS_ADMIT);
    const throttle = new AdaptiveThrottle({ now: clock.now, random: random.draw, windowMs: 10_000 });
    for (let i = 0; i < 3; i++) throttle.admit();
    clock.set(4_000);
    for (let i = 0; i < 2; i++) throttle.admit();
    clock.set(9_999);
    expect(throttle.requests, 'requests at 9,999 ms (3 made at 0 ms, 2 at 4,000 ms, window 10,000 ms)').toBe(5);
    clock.set(10_000);
    expect(throttle.requests, 'requests at 10,000 ms: the three made at 0 ms are exactly 10,000 ms old').toBe(2);
    clock.set(13_999);
    expect(throttle.requests, 'requests at 13,999 ms').toBe(2);
    clock.set(14_000);
    expect(throttle.requests, 'requests at 14,000 ms').toBe(0);
  });

  test('A6 an accept counts from the moment record(true) is called, for windowMs', () => {
    const clock = fakeClock(0);
    const throttle = new AdaptiveThrottle({ now: clock.now, random: fixedRandom(ALWAYS_ADMIT).draw, windowMs: 1_000 });
    throttle.admit();
    clock.set(600);
    throttle.record(true);
    clock.set(999);
    expect(throttle.accepts, 'accepts at 999 ms (recorded at 600 ms, window 1,000 ms)').toBe(1);
    clock.set(1_000);
    expect(throttle.requests, 'requests at 1,000 ms (made at 0 ms)').toBe(0);
    expect(throttle.accepts, 'accepts at 1,000 ms (recorded at 600 ms)').toBe(1);
    clock.set(1_600);
    expect(throttle.accepts, 'accepts at 1,600 ms (recorded at 600 ms)').toBe(0);
  });

  test('A6 the window is two minutes by default', () => {
    const clock = fakeClock(50);
    const throttle = new AdaptiveThrottle({ now: clock.now, random: fixedRandom(ALWAYS_ADMIT).draw });
    throttle.admit();
    throttle.record(true);
    clock.set(50 + 119_999);
    expect(throttle.requests, 'requests 119,999 ms after the only one').toBe(1);
    expect(throttle.accepts, 'accepts 119,999 ms after the only one').toBe(1);
    clock.set(50 + 120_000);
    expect(throttle.requests, 'requests 120,000 ms after the only one').toBe(0);
    expect(throttle.accepts, 'accepts 120,000 ms after the only one').toBe(0);
  });

  test('A6 after an outage, a recovered backend is trusted again within a few windows', () => {
    const clock = fakeClock(0);
    let seed = 2024;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const throttle = new AdaptiveThrottle({ now: clock.now, random, windowMs: 5_000 });
    // Five seconds in which the backend accepts nothing: the probability climbs to about 0.99.
    for (let t = 0; t < 5_000; t += 50) {
      clock.set(t);
      if (throttle.admit()) throttle.record(false);
    }
    expect(throttle.rejectProbability(), 'rejectProbability() after 5 s with no accept').toBeGreaterThan(0.9);
    // Then it accepts everything. The few requests still admitted are accepted, the bad seconds
    // leave the window, and the probability falls window after window until nothing is refused.
    let refusedLate = 0;
    for (let t = 5_000; t < 45_000; t += 50) {
      clock.set(t);
      const admitted = throttle.admit();
      if (admitted) throttle.record(true);
      else if (t >= 35_000) refusedLate++;
    }
    expect(refusedLate, 'requests refused 30 s (six windows) or more after the backend recovered').toBe(0);
    expectProbability(throttle.rejectProbability(), 0, 'rejectProbability() 40 s after the recovery');
  });
});
