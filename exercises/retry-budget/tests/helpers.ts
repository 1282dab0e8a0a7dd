// Shared helpers for the hidden retry-budget suite.
import { expect } from 'vitest';

/** Spends until the budget refuses (at most `max` times); returns how many spends succeeded. */
export function drain(budget: { trySpend(): boolean }, max = 10_000): number {
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

/** How a call settled, whether it threw synchronously, rejected or resolved. */
export async function settle<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

export function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Expects `make()` to throw a RangeError; fails with what happened otherwise. */
export function expectRangeError(make: () => unknown, what: string): void {
  let thrown: unknown;
  let threw = false;
  try {
    make();
  } catch (e) {
    thrown = e;
    threw = true;
  }
  if (!threw) expect.fail(`${what}: expected a RangeError, but nothing was thrown`);
  if (!(thrown instanceof RangeError)) expect.fail(`${what}: expected a RangeError, but got ${describeError(thrown)}`);
}

/** Expects `make()` not to throw; fails with the error otherwise. */
export function expectAccepted(make: () => unknown, what: string): void {
  try {
    make();
  } catch (e) {
    expect.fail(`${what}: valid options were rejected with ${describeError(e)}`);
  }
}

/** Float-tolerant comparison for rules that are not about exactness (exactness has its own rules). */
export function expectTokens(actual: number, expected: number, what: string): void {
  if (!(Math.abs(actual - expected) < 1e-9)) expect.fail(`${what}: expected ${expected} tokens, got ${String(actual)}`);
}
