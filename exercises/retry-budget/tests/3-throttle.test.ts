import { describe, expect, test } from 'vitest';
import { RetryThrottle } from '../src/budget.ts';
import { expectRangeError, expectTokens, repeat } from './helpers.ts';

/** A throttle after `failures` failures and `successes` successes, in that order. */
function after(opts: { maxTokens: number; tokenRatio: number }, failures: number, successes = 0) {
  const throttle = new RetryThrottle(opts);
  repeat(failures, () => throttle.onFailure());
  repeat(successes, () => throttle.onSuccess());
  return throttle;
}

describe('RetryThrottle', () => {
  test('T8 a new throttle starts at maxTokens and allows retries', () => {
    for (const maxTokens of [1, 10, 1000]) {
      const throttle = new RetryThrottle({ maxTokens, tokenRatio: 0.1 });
      expectTokens(throttle.tokens, maxTokens, `tokens of a new throttle with maxTokens ${maxTokens}`);
      expect(throttle.retryAllowed, `retryAllowed of a new throttle with maxTokens ${maxTokens}`).toBe(true);
    }
  });

  test('T9 a failure takes one token, a success adds tokenRatio', () => {
    const t = new RetryThrottle({ maxTokens: 10, tokenRatio: 0.5 });
    t.onFailure();
    expectTokens(t.tokens, 9, 'tokens after one failure from 10');
    repeat(2, () => t.onFailure());
    expectTokens(t.tokens, 7, 'tokens after three failures from 10');
    t.onSuccess();
    expectTokens(t.tokens, 7.5, 'tokens after three failures and a success of 0.5');
  });

  test('T9 failures never take the tokens below zero', () => {
    const t = after({ maxTokens: 2, tokenRatio: 0.5 }, 5);
    expectTokens(t.tokens, 0, 'tokens after 5 failures from 2');
    t.onSuccess();
    expectTokens(t.tokens, 0.5, 'tokens after 5 failures from 2, then a success of 0.5');
  });

  test('T9 successes never take the tokens above maxTokens', () => {
    const full = after({ maxTokens: 10, tokenRatio: 0.1 }, 0, 5);
    expectTokens(full.tokens, 10, 'tokens after 5 successes on a full throttle of 10');
    const refilled = after({ maxTokens: 10, tokenRatio: 0.4 }, 1, 20);
    expectTokens(refilled.tokens, 10, 'tokens after one failure and 20 successes of 0.4 (maxTokens 10)');
    refilled.onFailure();
    expectTokens(refilled.tokens, 9, 'tokens after one more failure');
  });

  test('T10 retries stop at exactly half and resume above it', () => {
    const t = after({ maxTokens: 10, tokenRatio: 0.1 }, 4);
    expect(t.retryAllowed, 'retryAllowed at 6 of 10 tokens').toBe(true);
    t.onFailure();
    expect(t.retryAllowed, 'retryAllowed at 5 of 10 tokens (exactly half: 5 > 5 is false)').toBe(false);
    t.onSuccess();
    expect(t.retryAllowed, 'retryAllowed at 5.1 of 10 tokens').toBe(true);
    t.onFailure();
    expect(t.retryAllowed, 'retryAllowed at 4.1 of 10 tokens').toBe(false);
  });

  test('T10 the threshold is maxTokens / 2 without rounding, also for odd maxTokens', () => {
    const cases: Array<[number, number, number, number, boolean]> = [
      // maxTokens, tokenRatio, failures, successes, allowed
      [3, 0.5, 1, 0, true], // 2 > 1.5
      [3, 0.5, 2, 0, false], // 1
      [3, 0.5, 2, 1, false], // 1.5, exactly half
      [3, 0.5, 2, 2, true], // 2
      [1, 0.25, 1, 2, false], // 0.5, exactly half
      [1, 0.25, 1, 3, true], // 0.75
      [1, 0.25, 1, 1, false], // 0.25
    ];
    for (const [maxTokens, tokenRatio, failures, successes, allowed] of cases) {
      const t = after({ maxTokens, tokenRatio }, failures, successes);
      const held = maxTokens - failures + successes * tokenRatio;
      expect(t.retryAllowed, `retryAllowed at ${held} of ${maxTokens} tokens (threshold ${maxTokens / 2})`).toBe(allowed);
    }
  });

  test('T11 digits after the third decimal of tokenRatio are ignored', () => {
    const cases: Array<[number, number]> = [
      [0.1239, 5.123], // the fourth decimal is dropped, not rounded
      [0.0015, 5.001],
      [1.005, 6.005], // 1.005 * 1000 is 1004.9999999999999 in floating point
      [0.25, 5.25],
    ];
    for (const [tokenRatio, expected] of cases) {
      const t = after({ maxTokens: 10, tokenRatio }, 5, 1);
      expectTokens(t.tokens, expected, `tokens after 5 failures from 10 and one success with tokenRatio ${tokenRatio}`);
    }
  });

  test('T11 a tokenRatio that keeps no digit in three decimals is rejected', () => {
    expectRangeError(() => new RetryThrottle({ maxTokens: 10, tokenRatio: 0.0009 }), 'tokenRatio 0.0009 (it counts as 0.000)');
  });

  test('T11 successes add up exactly, so the threshold is met exactly', () => {
    const tenths = after({ maxTokens: 10, tokenRatio: 0.1 }, 10, 50);
    expect(tenths.tokens, 'tokens after draining 10 and 50 successes of 0.1 (a float sum gives 4.999999999999998)').toBe(5);
    expect(tenths.retryAllowed, 'retryAllowed at exactly 5 of 10').toBe(false);
    const sevenths = after({ maxTokens: 14, tokenRatio: 0.7 }, 14, 10);
    expect(sevenths.tokens, 'tokens after draining 14 and 10 successes of 0.7 (a float sum gives 7.000000000000001)').toBe(7);
    expect(sevenths.retryAllowed, 'retryAllowed at exactly 7 of 14').toBe(false);
    sevenths.onSuccess();
    expect(sevenths.tokens, 'tokens after one more success of 0.7').toBe(7.7);
    expect(sevenths.retryAllowed, 'retryAllowed at 7.7 of 14').toBe(true);
  });
});
