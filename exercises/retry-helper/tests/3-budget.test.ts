import { describe, expect, test } from 'vitest';
import { fetchWithRetry, RetryError, tokenBucketBudget } from '../src/retry.ts';
import { clock, recordingSleep, rejection, scriptedFetch, URL_, type Step } from './helpers.ts';

function spyBudget(answers: boolean[] = []) {
  const log: string[] = [];
  let spends = 0;
  const budget = {
    deposit: () => void log.push('deposit'),
    trySpend: () => {
      log.push('trySpend');
      return answers[spends++] ?? true;
    },
  };
  return { budget, log };
}

function setup(steps: Step[], answers: boolean[] = []) {
  const c = clock(0);
  const b = spyBudget(answers);
  const f = scriptedFetch(steps);
  const s = recordingSleep(c);
  const fetch = ((input: string | URL | Request, init?: RequestInit) => {
    b.log.push('fetch');
    return f.fetch(input, init);
  }) as typeof globalThis.fetch;
  const opts = { deadlineAt: 1_000_000, now: c.now, random: () => 0.5, sleep: s.sleep, fetch, budget: b.budget };
  return { f, s, b, opts };
}

/**
 * Spends until the budget refuses, at most `max` times: no bucket here holds more than 10 tokens, and
 * one that never refuses is caught at 100 as surely as at 1000. Kept small: under strict grading each
 * trySpend is a round trip to the learner's process (the starter's budget always says yes).
 */
const drain = (budget: { trySpend(): boolean }, max = 100) => {
  let n = 0;
  while (budget.trySpend() && n < max) n++;
  return n;
};

describe('retry budget', () => {
  test('R12 deposits once at the start and spends once per retry sent', async () => {
    const { b, opts } = setup([503, 502, 200]);
    const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome').toBe(200);
    expect(b.log, 'order of budget and fetch calls').toEqual(['deposit', 'fetch', 'trySpend', 'fetch', 'trySpend', 'fetch']);
  });

  test('R12 a refused token rejects with budget-exhausted and sends no retry', async () => {
    const { f, b, opts } = setup([503, 200], [false]);
    const err = await rejection(fetchWithRetry(URL_, undefined, opts), RetryError, 'a budget that refuses');
    expect(err.reason, 'reason').toBe('budget-exhausted');
    expect(f.calls.length, 'fetch calls').toBe(1);
    expect(b.log.filter((x) => x === 'trySpend').length, 'trySpend calls').toBe(1);
  });

  test('R12 budget-exhausted carries the status of the last attempt', async () => {
    const { b, opts } = setup([502, 200], [false]);
    const err = await rejection(fetchWithRetry(URL_, undefined, opts), RetryError, 'a 502 and a budget that refuses');
    expect(err.reason, 'reason').toBe('budget-exhausted');
    expect(err.status, 'RetryError.status after a 502 then a refused token').toBe(502);
    expect(b.log, 'order of budget and fetch calls').toEqual(['deposit', 'fetch', 'trySpend']);
  });

  test('R12 spends no token when maxAttempts is reached', async () => {
    const { b, opts } = setup([503, 503, 503]);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 3 }), RetryError, 'three 503s');
    expect(err.reason, 'reason').toBe('gave-up');
    expect(b.log, 'order of budget and fetch calls').toEqual(['deposit', 'fetch', 'trySpend', 'fetch', 'trySpend', 'fetch']);
  });

  test('R12 spends no token on a non-idempotent call, a non-retryable status or no time left', async () => {
    const cases: Array<[string, Step[], RequestInit | undefined, object, string]> = [
      ['a POST that got a 503', [503], { method: 'POST', body: 'x' }, {}, 'not-idempotent'],
      ['a 404', [404], undefined, {}, 'not-retryable'],
      ['a 503 with 10 ms left', [503], undefined, { deadlineAt: 10 }, 'no-time-left'],
    ];
    for (const [label, steps, init, extra, reason] of cases) {
      const { b, opts } = setup(steps);
      const err = await rejection(fetchWithRetry(URL_, init, { ...opts, ...extra }), RetryError, label);
      expect(err.reason, `reason after ${label}`).toBe(reason);
      expect(b.log, `budget and fetch calls after ${label}`).toEqual(['deposit', 'fetch']);
    }
  });

  test('R12 deposits even when the first attempt succeeds', async () => {
    const { b, opts } = setup([200]);
    await fetchWithRetry(URL_, undefined, opts);
    expect(b.log, 'budget and fetch calls').toEqual(['deposit', 'fetch']);
  });

  test('R13 a new bucket starts with maxTokens tokens', () => {
    expect(drain(tokenBucketBudget()), 'retries allowed by a new default bucket').toBe(10);
    expect(drain(tokenBucketBudget({ maxTokens: 3 })), 'retries allowed by a new bucket with maxTokens 3').toBe(3);
  });

  test('R13 after draining, exactly 1/ratio deposits earn one retry', () => {
    for (const [ratio, deposits] of [
      [0.1, 10],
      [0.2, 5],
      [0.25, 4],
      [0.5, 2],
      [1, 1],
    ] as const) {
      const budget = tokenBucketBudget({ ratio });
      drain(budget);
      for (let round = 1; round <= 3; round++) {
        for (let i = 1; i < deposits; i++) budget.deposit();
        expect(budget.trySpend(), `trySpend after ${deposits - 1} deposits at ratio ${ratio} (round ${round})`).toBe(false);
        budget.deposit();
        expect(budget.trySpend(), `trySpend after ${deposits} deposits at ratio ${ratio} (round ${round})`).toBe(true);
        expect(budget.trySpend(), `a second trySpend after ${deposits} deposits at ratio ${ratio} (round ${round})`).toBe(false);
      }
    }
  });

  test('R13 the default ratio is 0.1', () => {
    const budget = tokenBucketBudget({ maxTokens: 5 });
    drain(budget);
    for (let i = 0; i < 9; i++) budget.deposit();
    expect(budget.trySpend(), 'trySpend after 9 deposits at the default ratio').toBe(false);
    budget.deposit();
    expect(budget.trySpend(), 'trySpend after 10 deposits at the default ratio').toBe(true);
  });

  test('R13 tokens never exceed maxTokens', () => {
    const budget = tokenBucketBudget({ ratio: 0.5, maxTokens: 2 });
    for (let i = 0; i < 100; i++) budget.deposit();
    expect(drain(budget), 'retries allowed after 100 deposits into a full bucket of 2').toBe(2);
    drain(budget);
    for (let i = 0; i < 100; i++) budget.deposit();
    expect(drain(budget), 'retries allowed after draining, then 100 deposits at ratio 0.5, maxTokens 2').toBe(2);
  });

  test('R13 limits retries inside fetchWithRetry', async () => {
    const budget = tokenBucketBudget({ ratio: 0.1, maxTokens: 1 });
    const { f, opts } = setup([503, 503, 503, 503, 200]);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, budget, maxAttempts: 5 }), RetryError, 'a bucket of 1 token');
    expect(err.reason, 'reason').toBe('budget-exhausted');
    expect(f.calls.length, 'fetch calls with one token in the bucket').toBe(2);
  });
});
