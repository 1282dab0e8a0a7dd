// Shared helpers for the hidden retry-budget suite.
import { expect } from 'vitest';

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
