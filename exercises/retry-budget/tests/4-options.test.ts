import { describe, expect, test } from 'vitest';
import { callWithRetries, RatioRetryBudget, RetryThrottle, type RatioRetryBudgetOptions, type RetryThrottleOptions } from '../src/budget.ts';
import { describeError, expectAccepted, expectRangeError, settle } from './helpers.ts';

/** An options object as it would be written in JavaScript: NaN, Infinity and -0 as numbers, not strings. */
const value = (v: unknown): string => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : v === undefined ? 'undefined' : JSON.stringify(v));
const show = (o: object) => {
  const fields = Object.entries(o).map(([k, v]) => `${k}: ${value(v)}`);
  return fields.length === 0 ? '{}' : `{ ${fields.join(', ')} }`;
};

describe('options', () => {
  test('T12 RatioRetryBudget rejects invalid options with a RangeError', () => {
    const invalid: RatioRetryBudgetOptions[] = [
      { ratio: 0 },
      { ratio: -0.1 },
      { ratio: 1.5 },
      { ratio: Number.NaN },
      { ratio: Number.POSITIVE_INFINITY },
      { ratio: 0.0005 },
      { ratio: 0.1005 },
      { maxTokens: 0 },
      { maxTokens: -1 },
      { maxTokens: 2.5 },
      { maxTokens: Number.NaN },
      { maxTokens: Number.POSITIVE_INFINITY },
      { initialTokens: -1 },
      { initialTokens: 10.001 },
      { maxTokens: 3, initialTokens: 4 },
      { initialTokens: Number.NaN },
      { initialTokens: 0.0005 },
    ];
    for (const opts of invalid) expectRangeError(() => new RatioRetryBudget(opts), `new RatioRetryBudget(${show(opts)})`);
  });

  test('T12 RatioRetryBudget accepts every valid option, boundaries included', () => {
    const valid: RatioRetryBudgetOptions[] = [
      {},
      { ratio: 1 },
      { ratio: 0.001 },
      { ratio: 0.125 },
      { maxTokens: 1 },
      { maxTokens: 500 },
      { initialTokens: 0 },
      { maxTokens: 3, initialTokens: 3 },
      { initialTokens: 2.5 },
    ];
    for (const opts of valid) expectAccepted(() => new RatioRetryBudget(opts), `new RatioRetryBudget(${show(opts)})`);
  });

  test('T12 RetryThrottle rejects invalid options with a RangeError', () => {
    const invalid = [
      { maxTokens: 0, tokenRatio: 0.1 },
      { maxTokens: -1, tokenRatio: 0.1 },
      { maxTokens: 1001, tokenRatio: 0.1 },
      { maxTokens: 2.5, tokenRatio: 0.1 },
      { maxTokens: Number.NaN, tokenRatio: 0.1 },
      { maxTokens: undefined, tokenRatio: 0.1 },
      { maxTokens: 10, tokenRatio: 0 },
      { maxTokens: 10, tokenRatio: -0.1 },
      { maxTokens: 10, tokenRatio: Number.NaN },
      { maxTokens: 10, tokenRatio: Number.POSITIVE_INFINITY },
      { maxTokens: 10, tokenRatio: undefined },
    ] as unknown as RetryThrottleOptions[];
    for (const opts of invalid) expectRangeError(() => new RetryThrottle(opts), `new RetryThrottle(${show(opts)})`);
  });

  test('T12 RetryThrottle accepts every valid option, boundaries included', () => {
    const valid: RetryThrottleOptions[] = [
      { maxTokens: 1, tokenRatio: 0.1 },
      { maxTokens: 1000, tokenRatio: 0.1 },
      { maxTokens: 10, tokenRatio: 0.001 },
      { maxTokens: 10, tokenRatio: 5 },
      { maxTokens: 10, tokenRatio: 0.1239 },
    ];
    for (const opts of valid) expectAccepted(() => new RetryThrottle(opts), `new RetryThrottle(${show(opts)})`);
  });

  test('T12 callWithRetries rejects an invalid maxAttempts with a RangeError, before any attempt', async () => {
    for (const maxAttempts of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      let attempts = 0;
      const budget = { deposit() {}, trySpend: () => true };
      // A synchronous throw and a rejected promise are both accepted.
      const outcome = await settle(() => callWithRetries(budget, async () => (attempts++, 'ok'), { maxAttempts }));
      const what = `callWithRetries with maxAttempts ${maxAttempts}`;
      expect(
        outcome.ok ? `resolved with ${String(outcome.value)}` : outcome.error instanceof RangeError ? 'RangeError' : describeError(outcome.error),
        what,
      ).toBe('RangeError');
      expect(attempts, `attempts made by ${what}`).toBe(0);
    }
  });
});
