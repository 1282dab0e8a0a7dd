// Shared helpers for the hidden adaptive-throttle suite.
import { expect } from 'vitest';
import { describeError, startedPromise } from '../test-support/expect.ts';

export { describeError, expectAccepted, expectRangeError, settle } from '../test-support/expect.ts';
import { AdaptiveThrottle, type AdaptiveThrottleOptions } from '../src/throttle.ts';

/** A clock the test moves by hand. */
export function fakeClock(start = 0) {
  let t = start;
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
    set(ms: number) {
      t = ms;
    },
  };
}

/** A random source that returns `value` until the test changes it. */
export function fixedRandom(value: number) {
  const source = { value, draw: () => source.value };
  return source;
}

/** Just below 1: admits whenever the reject probability is below it, which it always is here. */
export const ALWAYS_ADMIT = 1 - 2 ** -40;

/**
 * A throttle with `requests` requests and `accepts` accepts in its window, all made at the clock's
 * current time: admit() with a draw that always admits, then record(true) for the first `accepts`.
 */
export function withHistory(requests: number, accepts: number, opts: Omit<AdaptiveThrottleOptions, 'now' | 'random'> = {}) {
  const clock = fakeClock(1_000);
  const random = fixedRandom(ALWAYS_ADMIT);
  const throttle = new AdaptiveThrottle({ ...opts, now: clock.now, random: random.draw });
  for (let i = 0; i < requests; i++) {
    if (!throttle.admit()) expect.fail(`setting up ${requests} requests: admit() refused request ${i + 1} with a draw of ${ALWAYS_ADMIT}`);
  }
  for (let i = 0; i < accepts; i++) throttle.record(true);
  return { throttle, clock, random };
}

/** A throttle stand-in that answers admit() with `admits` and logs every call. */
export function spyThrottle(admits: boolean) {
  const log: string[] = [];
  return {
    log,
    admit: () => {
      log.push('admit');
      return admits;
    },
    record: (accepted: boolean) => void log.push(`record(${String(accepted)})`),
  };
}

/** Compares a probability, allowing only float noise (any algebraically equal formula passes). */
export function expectProbability(actual: number, expected: number, what: string): void {
  if (!(Math.abs(actual - expected) < 1e-12)) expect.fail(`${what}: expected ${expected}, got ${String(actual)}`);
}

/** Calls `start` (one callThrottled call) without awaiting it; see startedPromise() in ../test-support/expect.ts. */
export const started = <T>(start: () => Promise<T>, what: string): Promise<T> => startedPromise(start, what, 'callThrottled', describeError);
