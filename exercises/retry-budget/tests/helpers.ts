// Shared helpers for the hidden retry-budget suite.
import { expect } from 'vitest';

import { describeError } from '../test-support/expect.ts';

export { describeError, expectAccepted, expectRangeError, settle } from '../test-support/expect.ts';

/**
 * Spends until the budget refuses (at most `max` times); returns how many spends succeeded. No budget
 * in these tests holds more than 100 tokens; under strict grading each trySpend is a round trip to
 * the learner's process, so a budget that never refuses is stopped at 1,000, not 10,000.
 */
export function drain(budget: { trySpend(): boolean }, max = 1_000): number {
  let n = 0;
  while (n < max && budget.trySpend()) n++;
  return n;
}

export function repeat(times: number, fn: () => void): void {
  for (let i = 0; i < times; i++) fn();
}

/** A budget that records every call into `log` and answers trySpend from `answers` (then true). */
export function spyBudget(log: string[], answers: boolean[] = []) {
  let spends = 0;
  return {
    deposit: () => void log.push('deposit'),
    trySpend: () => {
      log.push('trySpend');
      return answers[spends++] ?? true;
    },
  };
}

/** An attempt function that plays `outcomes` in order (an Error rejects, anything else resolves). */
export function scriptedAttempt<T>(log: string[], outcomes: Array<T | Error>) {
  let n = 0;
  const attempt = async (): Promise<T> => {
    log.push('attempt');
    const outcome = outcomes[n++];
    if (outcome === undefined) throw new Error(`attempt ${n} was not expected`);
    if (outcome instanceof Error) throw outcome;
    return outcome;
  };
  return attempt;
}

/** Float-tolerant comparison for rules that are not about exactness (exactness has its own rules). */
export function expectTokens(actual: number, expected: number, what: string): void {
  if (!(Math.abs(actual - expected) < 1e-9)) expect.fail(`${what}: expected ${expected} tokens, got ${String(actual)}`);
}

/**
 * Calls `start` (one callWithRetries call) without awaiting it, as a caller does that starts several
 * calls before awaiting any, or writes `callWithRetries(…).catch(…)`: fails the test when the call
 * throws synchronously or returns something that is not a promise. settle() (and any await, or a
 * try/catch around one) takes a synchronous throw for a rejection. Returns the promise.
 */
export function started<T>(start: () => Promise<T>, what: string): Promise<T> {
  let result: unknown;
  try {
    result = start();
  } catch (error) {
    expect.fail(`${what}: callWithRetries threw synchronously (${describeError(error)}), out of the call itself; it must return a promise`);
  }
  if (typeof (result as { then?: unknown } | null | undefined)?.then !== 'function') {
    expect.fail(`${what}: callWithRetries returned ${describeError(result)}, not a promise`);
  }
  return Promise.resolve(result as PromiseLike<T>);
}
