import { describe, expect, test } from 'vitest';
import { RatioRetryBudget } from '../src/budget.ts';
import { drain, expectTokens, repeat } from './helpers.ts';

describe('RatioRetryBudget', () => {
  test('T1 a new budget starts full by default: 10 tokens, 10 retries', () => {
    const budget = new RatioRetryBudget();
    expectTokens(budget.tokens, 10, 'tokens of new RatioRetryBudget()');
    expect(drain(budget), 'retries a new default budget allows').toBe(10);
    const three = new RatioRetryBudget({ maxTokens: 3 });
    expectTokens(three.tokens, 3, 'tokens of a new budget with maxTokens 3');
    expect(drain(three), 'retries a new budget with maxTokens 3 allows').toBe(3);
  });

  test('T1 a new budget starts with initialTokens when given', () => {
    const empty = new RatioRetryBudget({ maxTokens: 5, initialTokens: 0 });
    expectTokens(empty.tokens, 0, 'tokens with initialTokens 0');
    expect(drain(empty), 'retries allowed with initialTokens 0').toBe(0);
    const some = new RatioRetryBudget({ maxTokens: 5, initialTokens: 2.5 });
    expectTokens(some.tokens, 2.5, 'tokens with initialTokens 2.5');
    expect(drain(some), 'retries allowed with initialTokens 2.5').toBe(2);
  });

  test('T2 trySpend takes exactly one token per retry and never goes below zero', () => {
    const budget = new RatioRetryBudget({ maxTokens: 5, initialTokens: 2.5 });
    expect(budget.trySpend(), 'first trySpend with 2.5 tokens').toBe(true);
    expectTokens(budget.tokens, 1.5, 'tokens after one trySpend from 2.5');
    expect(budget.trySpend(), 'second trySpend with 1.5 tokens').toBe(true);
    expectTokens(budget.tokens, 0.5, 'tokens after two trySpend calls from 2.5');
    expect(budget.trySpend(), 'trySpend with 0.5 tokens').toBe(false);
    expectTokens(budget.tokens, 0.5, 'tokens after a refused trySpend (a refusal must take nothing)');
  });

  test('T2 0.999 of a token is not a retry', () => {
    const budget = new RatioRetryBudget({ ratio: 0.1, initialTokens: 0.999 });
    expect(budget.trySpend(), 'trySpend with 0.999 tokens').toBe(false);
    expectTokens(budget.tokens, 0.999, 'tokens after a refused trySpend at 0.999');
    budget.deposit();
    expect(budget.trySpend(), 'trySpend with 1.099 tokens').toBe(true);
    expectTokens(budget.tokens, 0.099, 'tokens after spending one of 1.099');
    expect(budget.trySpend(), 'trySpend with 0.099 tokens').toBe(false);
  });

  test('T3 deposit adds ratio, 0.1 by default', () => {
    const byDefault = new RatioRetryBudget({ initialTokens: 0 });
    byDefault.deposit();
    expectTokens(byDefault.tokens, 0.1, 'tokens after one deposit at the default ratio');
    const quarter = new RatioRetryBudget({ ratio: 0.25, initialTokens: 0 });
    quarter.deposit();
    expectTokens(quarter.tokens, 0.25, 'tokens after one deposit at ratio 0.25');
    repeat(3, () => quarter.deposit());
    expectTokens(quarter.tokens, 1, 'tokens after four deposits at ratio 0.25');
    expect(quarter.trySpend(), 'trySpend after four deposits at ratio 0.25').toBe(true);
    const one = new RatioRetryBudget({ ratio: 1, initialTokens: 2 });
    one.deposit();
    expectTokens(one.tokens, 3, 'tokens after one deposit at ratio 1 from 2');
  });

  test('T4 tokens never exceed maxTokens', () => {
    const full = new RatioRetryBudget();
    repeat(100, () => full.deposit());
    expectTokens(full.tokens, 10, 'tokens after 100 deposits into a full default budget');
    expect(drain(full), 'retries allowed after 100 deposits into a full default budget').toBe(10);

    const near = new RatioRetryBudget({ ratio: 0.5, maxTokens: 2, initialTokens: 1.8 });
    near.deposit();
    expectTokens(near.tokens, 2, 'tokens after depositing 0.5 into 1.8 of a maximum 2');

    const drained = new RatioRetryBudget({ ratio: 0.5, maxTokens: 3 });
    drain(drained);
    repeat(1000, () => drained.deposit());
    expectTokens(drained.tokens, 3, 'tokens after draining, then 1000 deposits at ratio 0.5 with maxTokens 3');
    expect(drain(drained), 'retries allowed after those deposits').toBe(3);
  });

  test('T5 ten deposits of 0.1 make exactly one token, round after round', () => {
    const budget = new RatioRetryBudget({ ratio: 0.1, initialTokens: 0 });
    for (let round = 1; round <= 3; round++) {
      repeat(9, () => budget.deposit());
      expect(budget.trySpend(), `trySpend after 9 deposits of 0.1 (round ${round})`).toBe(false);
      budget.deposit();
      expect(budget.tokens, `tokens after 10 deposits of 0.1 (round ${round}); 0.1 added ten times in floating point is 0.9999999999999999`).toBe(1);
      expect(budget.trySpend(), `trySpend after 10 deposits of 0.1 (round ${round})`).toBe(true);
      expect(budget.tokens, `tokens after spending the token (round ${round})`).toBe(0);
    }
  });

  test('T5 1000 deposits of 0.1 make exactly 100 tokens', () => {
    const budget = new RatioRetryBudget({ ratio: 0.1, maxTokens: 100, initialTokens: 0 });
    repeat(1000, () => budget.deposit());
    expect(budget.tokens, 'tokens after 1000 deposits of 0.1 (a float sum gives 99.9999999999986)').toBe(100);
    expect(drain(budget), 'retries allowed by those 100 tokens').toBe(100);
  });

  test('T5 other ratios count exactly too', () => {
    for (const [ratio, deposits, expected] of [
      [0.3, 10, 3],
      [0.7, 10, 7],
      [0.05, 20, 1],
      [0.001, 1000, 1],
      [0.125, 8, 1],
    ] as const) {
      const budget = new RatioRetryBudget({ ratio, initialTokens: 0 });
      repeat(deposits, () => budget.deposit());
      expect(budget.tokens, `tokens after ${deposits} deposits of ${ratio}`).toBe(expected);
    }
    const budget = new RatioRetryBudget({ ratio: 0.3, initialTokens: 0 });
    repeat(4, () => budget.deposit());
    budget.trySpend();
    expect(budget.tokens, 'tokens after 4 deposits of 0.3 and one spend').toBe(0.2);
  });
});
