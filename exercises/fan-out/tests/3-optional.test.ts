// F6-F8: optional branches never fail the call; they are cut at their cutoff (with their signal
// aborted) and reported as dropped, in the order they were given. Each rule's tests run side by side,
// each with its own scope (the `h` fixture, harness.ts). F7's test of the cut at the end of the
// budget reads a call that started with the first file (budgetCut() in harness.ts).
import { describe, expect } from 'vitest';
import { fanOut } from '../src/fan-out.ts';
import { budgetCut, CUTOFF_PAST_BUDGET_MS, deadline, describeOutcome, ms, test } from './harness.ts';

const sorted = (xs: unknown) => (Array.isArray(xs) ? [...xs].sort() : xs);

describe('F6 optional failures are dropped', () => {
  test.concurrent('F6 an optional branch that rejects or throws is dropped and the call succeeds', async ({ h }) => {
    const { ctx } = deadline(5000);
    const b = h.branches([
      ['price', true, { after: 40, value: 10 }],
      ['reviews', false, { after: 10, error: new Error('reviews answered 503') }],
      ['recs', false, { throws: new Error('bug in the recs client') }],
      ['stock', true, { after: 20, value: 5 }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    expect(b.probes['stock']!.calls, `the branch after the one that threw synchronously was called ${b.probes['stock']!.calls} time(s)`).toBe(1);
    expect(o.ok, `only optional branches failed (one rejected, one threw synchronously), so the call must succeed, but ${describeOutcome(o)}`).toBe(true);
    const value = (o as any).value;
    expect(value?.results, `the required branches succeeded; ${describeOutcome(o)}`).toEqual({ price: 10, stock: 5 });
    expect(sorted(value?.dropped), `"reviews" rejected and "recs" threw, so both are dropped; ${describeOutcome(o)}`).toEqual(['recs', 'reviews']);
  });
});

describe('F7 optional branches are cut at the cutoff', () => {
  test.concurrent('F7 aborts an optional branch at optionalCutoffMs, drops it, and does not wait for it', async ({ h }) => {
    const { ctx } = deadline(5000);
    const b = h.branches([
      ['price', true, { after: 100, value: 1 }],
      ['reviews', false, { after: 10, value: 'r' }],
      ['recs', false, 'hang'],
      ['ads', false, { after: 150, value: 'a' }], // ignores its signal
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any, { optionalCutoffMs: 40 }), 500); // "price" answers at 100 ms
    const { recs, ads, price } = b.probes as Record<string, any>;
    expect(
      ads.settledAt,
      `fanOut waited for the optional "ads" (which ignores its signal) until it finished at ${ms(ads.settledAt)}; drop it at the cutoff`,
    ).toBeUndefined();
    expect(o.ok, describeOutcome(o)).toBe(true);
    for (const p of [recs, ads]) {
      expect(p.abortedAt, `the optional "${p.name}" was still running at its 40 ms cutoff, but its signal never aborted`).toBeDefined();
      expect(p.abortedAt >= 30, `the signal of the optional "${p.name}" aborted after ${ms(p.abortedAt)}, before its 40 ms cutoff`).toBe(true);
      expect(
        p.abortedAt < price.settledAt,
        `the signal of the optional "${p.name}" aborted only at ${ms(p.abortedAt)}, when the required "price" finished (${ms(price.settledAt)}), not at its 40 ms cutoff`,
      ).toBe(true);
    }
    expect(
      price.abortedAt === undefined || price.abortedAt >= price.settledAt,
      `the signal of the required "price" aborted at ${ms(price.abortedAt)}, while it was still working (it answered at ${ms(price.settledAt)}): cutting an optional branch at its cutoff must abort that branch's signal only`,
    ).toBe(true);
    const value = (o as any).value;
    expect(value?.results, `"price" and "reviews" finished in time; ${describeOutcome(o)}`).toEqual({ price: 1, reviews: 'r' });
    expect(sorted(value?.dropped), `"recs" and "ads" missed the cutoff; ${describeOutcome(o)}`).toEqual(['ads', 'recs']);
  });
  test.concurrent('F7 without optionalCutoffMs, an optional branch is cut when the budget runs out', async () => {
    const { o, recs } = await budgetCut(fanOut);
    expect(
      recs.abortedAt,
      `the optional "recs" was still running when the 60 ms budget ran out, but its signal never aborted (${describeOutcome(o)})`,
    ).toBeDefined();
    expect(recs.abortedAt! >= 50, `the signal of "recs" aborted after ${ms(recs.abortedAt)}, before its 60 ms ran out`).toBe(true);
    expect(o.ok, describeOutcome(o)).toBe(true);
    expect((o as any).value?.dropped, describeOutcome(o)).toEqual(['recs']);
    expect((o as any).value?.results, describeOutcome(o)).toEqual({ price: 1 });
  });

  // CUTOFF_PAST_BUDGET_MS is 5000: the name is written out, as the Vietnamese names file reads it.
  test.concurrent('F7 with optionalCutoffMs 5000, past the budget, an optional branch is still cut when the budget runs out', async () => {
    const { o, recs } = await budgetCut(fanOut, CUTOFF_PAST_BUDGET_MS);
    expect(
      recs.abortedAt,
      `the optional "recs" got timeoutMs ${String(recs.timeoutMs)} (Math.min(left, optionalCutoffMs) with 60 ms left), but its signal had not aborted when that ran out (${describeOutcome(o)}): cut it at its timeoutMs, not at optionalCutoffMs`,
    ).toBeDefined();
    expect(recs.abortedAt! >= 50, `the signal of "recs" aborted after ${ms(recs.abortedAt)}, before its 60 ms ran out`).toBe(true);
    expect(o.ok, describeOutcome(o)).toBe(true);
    expect((o as any).value?.dropped, describeOutcome(o)).toEqual(['recs']);
  });
});

describe('F8 the result', () => {
  test.concurrent('F8 dropped lists the dropped branches in the order they were given, results only the successes', async ({ h }) => {
    const { ctx } = deadline(5000);
    const b = h.branches([
      ['recs', false, 'hang'], // dropped third (cutoff, 40 ms)
      ['ads', false, { after: 25, error: new Error('ads down') }], // dropped second
      ['price', true, { after: 10, value: 1 }],
      ['reviews', false, { throws: new Error('bug') }], // dropped first
      ['stock', true, { after: 5, value: 2 }],
      ['tips', false, { after: 5, value: 't' }],
      ['late', false, { after: 60, value: 'l' }], // ignores its signal: answers 20 ms after its cutoff (dropped fourth)
      ['tax', true, { after: 90, value: 3 }], // still working when "late" answers
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any, { optionalCutoffMs: 40 }), 300); // the cutoff is at 40 ms
    expect(o.ok, describeOutcome(o)).toBe(true);
    const { results, dropped } = (o as any).value ?? {};
    expect(
      dropped,
      `the branches were given as recs, ads, price, reviews, stock, tips, late, tax; ${describeOutcome(o)}, expected dropped ["recs","ads","reviews","late"] (the order given, not the order they dropped out)`,
    ).toEqual(['recs', 'ads', 'reviews', 'late']);
    const keys = results && typeof results === 'object' ? Object.keys(results).sort() : results;
    expect(
      keys,
      `results should hold exactly the branches that succeeded in time (the optional "late" answered at 60 ms, after its 40 ms cutoff, so it is dropped and not a result); ${describeOutcome(o)}`,
    ).toEqual(['price', 'stock', 'tax', 'tips']);
    expect([results.price, results.stock, results.tips, results.tax], describeOutcome(o)).toEqual([1, 2, 't', 3]);
  });
});
