// Each rule's tests run side by side (test.concurrent), each with its own scope (the `h` fixture, harness.ts).
import { describe, expect } from 'vitest';
import { hedgedFetch, RatioHedgeBudget } from '../src/hedge.ts';
import { delay, quiet, rejectsWithin, resolvesWithin, spyBudget, test } from './harness.ts';

describe('the hedge budget', () => {
  test.concurrent('H6 records the request before the first attempt and asks for a hedge just before sending it', async ({ h }) => {
    const b = spyBudget();
    const s = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } }, b.log);
    await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 20, budget: b.budget }), quiet(150), 'a hedged call');
    expect(b.log, 'order of budget calls and attempts in a hedged call').toEqual(['recordRequest', 'attempt 1', 'tryHedge', 'attempt 2']);
  });

  test.concurrent('H6 records each call once and asks for no hedge when none is due', async ({ h }) => {
    const b = spyBudget();
    for (const method of ['GET', 'POST']) {
      const s = h.scripted({ 1: { after: 5, value: 'one' } }, b.log);
      await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 30, budget: b.budget, method }), quiet(150), `a ${method} that answers at 5 ms`);
    }
    await delay(40);
    expect(b.log, 'budget calls and attempts for a fast GET then a POST').toEqual(['recordRequest', 'attempt 1', 'recordRequest', 'attempt 1']);
  });

  test.concurrent('H6 a refused hedge is not sent and the first attempt carries on alone', async ({ h }) => {
    const b = spyBudget([false]);
    const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: { after: 1, value: 'two' } }, b.log);
    const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 15, budget: b.budget }), quiet(300), 'a call whose hedge the budget refuses');
    expect(value, 'value of the call').toBe('one');
    expect(b.log, 'budget calls and attempts when tryHedge() says no').toEqual(['recordRequest', 'attempt 1', 'tryHedge']);
  });

  test.concurrent('H6 a refused hedge is not asked for again when the first attempt then fails', async ({ h }) => {
    const boom = new Error('first failed');
    const b = spyBudget([false, true]);
    const s = h.scripted({ 1: { after: 40, error: boom }, 2: { after: 1, value: 'two' } }, b.log);
    const { error } = await rejectsWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 15, budget: b.budget }),
      quiet(200),
      'hedge refused at 15 ms, first fails at 40 ms',
    );
    expect(error, 'the rejection').toBe(boom);
    expect(b.log, 'budget calls and attempts').toEqual(['recordRequest', 'attempt 1', 'tryHedge']);
  });

  test.concurrent('H6 a RatioHedgeBudget(0.5) lets the second of two slow calls hedge', async ({ h }) => {
    const budget = new RatioHedgeBudget(0.5);
    const attempts: number[] = [];
    for (let i = 0; i < 2; i++) {
      const s = h.scripted({ 1: { after: 40, value: 'one' }, 2: 'hang' });
      await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 10, budget }), quiet(200), `slow call ${i + 1}`);
      attempts.push(s.calls.length);
    }
    expect(attempts, 'attempts sent by two slow calls sharing a RatioHedgeBudget(0.5)').toEqual([1, 2]);
    expect([budget.requests, budget.hedges], '[requests, hedges] counted by the budget').toEqual([2, 1]);
  });

  test('H7 a new RatioHedgeBudget counts nothing and defaults to a 5% cap', () => {
    const budget = new RatioHedgeBudget();
    expect(budget.maxHedgeRatio, 'default maxHedgeRatio').toBe(0.05);
    expect([budget.requests, budget.hedges], '[requests, hedges] of a new budget').toEqual([0, 0]);
    expect(budget.tryHedge(), 'tryHedge() with no request recorded').toBe(false);
    for (let i = 0; i < 19; i++) budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 19 requests at 5% (one hedge would be 5.3%)').toBe(false);
    budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 20 requests at 5%').toBe(true);
    expect(budget.tryHedge(), 'a second tryHedge() after 20 requests at 5%').toBe(false);
    for (let i = 0; i < 19; i++) budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 39 requests and 1 hedge at 5%').toBe(false);
    budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 40 requests and 1 hedge at 5%').toBe(true);
    expect([budget.requests, budget.hedges], '[requests, hedges]').toEqual([40, 2]);
  });

  test('H7 hedges never exceed maxHedgeRatio of requests, and a refusal is not counted', () => {
    const budget = new RatioHedgeBudget(0.25);
    expect(budget.maxHedgeRatio, 'maxHedgeRatio').toBe(0.25);
    const granted: number[] = [];
    for (let request = 1; request <= 12; request++) {
      budget.recordRequest();
      if (budget.tryHedge()) granted.push(request);
      expect(budget.hedges, `hedges after ${request} requests at 25%`).toBeLessThanOrEqual(0.25 * request);
    }
    expect(granted, 'requests whose tryHedge() said yes, at 25%').toEqual([4, 8, 12]);
    expect([budget.requests, budget.hedges], '[requests, hedges] after 12 requests at 25%').toEqual([12, 3]);
  });

  test('H7 a ratio of 1 allows one hedge per request', () => {
    const budget = new RatioHedgeBudget(1);
    budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 1 request at ratio 1').toBe(true);
    expect(budget.tryHedge(), 'a second tryHedge() after 1 request at ratio 1').toBe(false);
    budget.recordRequest();
    expect(budget.tryHedge(), 'tryHedge() after 2 requests and 1 hedge at ratio 1').toBe(true);
    expect([budget.requests, budget.hedges], '[requests, hedges]').toEqual([2, 2]);
  });
});
