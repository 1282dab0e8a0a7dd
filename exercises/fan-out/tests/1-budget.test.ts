// F1-F3: the branches run in parallel, share one budget (remaining minus the reserve), and
// nothing starts when that budget is already spent. Each rule's tests run side by side, each with
// its own scope (the `h` fixture, harness.ts).
import { beforeAll, describe, expect } from 'vitest';
import { fanOut, FanOutError } from '../src/fan-out.ts';
import { budgetCut, CUTOFF_PAST_BUDGET_MS, deadline, describeOutcome, movingDeadline, ms, test } from './harness.ts';

// F7's test of the cut at the end of the budget (3-optional.test.ts) may wait 1 s for its call:
// the call starts with the first file and runs beside the tests until F7 reads it. From a timer, not
// from the hook itself: a fanOut that loops forever then hangs while a test runs, and the results name
// that test instead of saying the file never loaded.
beforeAll(() => {
  setTimeout(() => {
    void budgetCut(fanOut);
    void budgetCut(fanOut, CUTOFF_PAST_BUDGET_MS);
  }, 0);
});

describe('F1 parallel branches', () => {
  test.concurrent('F1 calls every branch once, all before any of them finishes, and returns every value', async ({ h }) => {
    const { ctx } = deadline(5000);
    const b = h.branches([
      ['price', true, { after: 40, value: 19.9 }],
      ['stock', true, { after: 40, value: 3 }],
      ['reviews', false, { after: 40, value: ['great'] }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    for (const p of Object.values(b.probes)) {
      expect(p.calls, `branch "${p.name}" was called ${p.calls} time(s), expected exactly once`).toBe(1);
      expect(p.signal instanceof AbortSignal, `branch "${p.name}" was called without an AbortSignal as its first argument`).toBe(true);
    }
    const probes = Object.values(b.probes);
    const lastCalled = probes.reduce((a, p) => ((p.calledAt ?? Infinity) > (a.calledAt ?? Infinity) ? p : a));
    const firstDone = Math.min(...probes.map((p) => p.settledAt ?? Infinity));
    expect(
      lastCalled.calledAt! < firstDone,
      `branch "${lastCalled.name}" was called only at ${ms(lastCalled.calledAt)}, after another branch had already finished (${ms(firstDone)}): the branches ran one after another`,
    ).toBe(true);
    expect(o.ok, describeOutcome(o)).toBe(true);
    const value = (o as any).value;
    expect(value?.results, `three branches succeeded but ${describeOutcome(o)}`).toEqual({ price: 19.9, stock: 3, reviews: ['great'] });
    expect(value?.dropped, `nothing was dropped but ${describeOutcome(o)}`).toEqual([]);
  });
});

describe('F2 one budget: remaining minus the reserve', () => {
  const cases: Array<[number, { reserveMs?: number; optionalCutoffMs?: number }, number, number]> = [
    [1000.7, {}, 980, 980],
    [1000.7, { reserveMs: 100, optionalCutoffMs: 300 }, 900, 300],
    [250, { reserveMs: 50, optionalCutoffMs: 5000 }, 200, 200],
    [95.5, { reserveMs: 0, optionalCutoffMs: 40 }, 95, 40],
  ];
  test.concurrent.for(cases)(
    'F2 with remaining() = %s and options %j: required %i ms, optional %i ms',
    async ([remaining, opts, required, optional], { h }) => {
      const { ctx } = deadline(remaining);
      const b = h.branches([
        ['price', true, { after: 0, value: 1 }],
        ['stock', true, { after: 0, value: 2 }],
        ['reviews', false, { after: 0, value: 3 }],
      ]);
      const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any, opts));
      const label = `with remaining() = ${remaining}, reserveMs ${opts.reserveMs ?? 'default (20)'} and optionalCutoffMs ${opts.optionalCutoffMs ?? 'not given'}`;
      for (const name of ['price', 'stock']) {
        const p = b.probes[name]!;
        expect(p.calls, `${label}, the required branch "${name}" was not called (${describeOutcome(o)})`).toBe(1);
        expect(
          p.timeoutMs,
          `${label}, the required branch "${name}" got timeoutMs = ${String(p.timeoutMs)}, expected Math.floor(remaining() - reserveMs) = ${required}`,
        ).toBe(required);
      }
      const p = b.probes['reviews']!;
      expect(
        p.timeoutMs,
        `${label}, the optional branch "reviews" got timeoutMs = ${String(p.timeoutMs)}, expected Math.min(left, optionalCutoffMs) = ${optional}`,
      ).toBe(optional);
      expect(o.ok, describeOutcome(o)).toBe(true);
    },
  );
});

describe('F2 the budget is read once', () => {
  test.concurrent('F2 every branch gets the budget of one read of remaining(), even when later reads would say less', async ({ h }) => {
    // remaining() says 1000 on the first read and 100 ms less on every read after it.
    const { ctx, reads } = movingDeadline(1000, 100);
    const b = h.branches([
      ['price', true, { after: 0, value: 1 }],
      ['stock', true, { after: 0, value: 2 }],
      ['tax', true, { after: 0, value: 3 }],
      ['reviews', false, { after: 0, value: 4 }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    const got = Object.values(b.probes).map((p) => `${p.name} ${String(p.timeoutMs)}`);
    const budgets = new Set(Object.values(b.probes).map((p) => p.timeoutMs));
    const fromOneRead = reads.some((r) => budgets.size === 1 && budgets.has(Math.floor(r - 20)));
    expect(
      fromOneRead,
      `remaining() was read ${reads.length} time(s) (${reads.join(', ')}) and the branches got ${got.join(', ')}: read it once when fanOut starts, and give every branch Math.floor(that - reserveMs)`,
    ).toBe(true);
    expect(o.ok, describeOutcome(o)).toBe(true);
  });
});

describe('F3 no time left: nothing is called', () => {
  const spent: Array<[number, { reserveMs?: number }]> = [
    [20, {}],
    [20.99, {}],
    [0, {}],
    [100, { reserveMs: 150 }],
  ];
  test.concurrent.for(spent)('F3 with remaining() = %s and options %j, rejects with no-time-left and calls nothing', async ([remaining, opts], { h }) => {
    const { ctx } = deadline(remaining);
    const b = h.branches([
      ['price', true, { after: 0, value: 1 }],
      ['reviews', false, { after: 0, value: 2 }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any, opts));
    const label = `with remaining() = ${remaining} and reserveMs ${opts.reserveMs ?? 'default (20)'}, no whole millisecond was left`;
    const called = Object.values(b.probes)
      .filter((p) => p.calls > 0)
      .map((p) => p.name);
    expect(called, `${label}, but these branches were called: ${called.join(', ')}`).toEqual([]);
    expect(o.ok === false && o.error instanceof FanOutError, `${label}; expected a rejection with FanOutError, but ${describeOutcome(o)}`).toBe(true);
    expect((o as any).error.reason, `${label}; ${describeOutcome(o)}, expected reason "no-time-left"`).toBe('no-time-left');
  });

  test.concurrent('F3 with one whole millisecond left (remaining() = 21), the branches are called', async ({ h }) => {
    const { ctx } = deadline(21);
    const b = h.branches([['price', true, { after: 0, value: 1 }]]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    expect(b.probes['price']!.calls, `remaining() - reserveMs = 1 ms is still a positive budget, but the branch was not called (${describeOutcome(o)})`).toBe(
      1,
    );
    expect(b.probes['price']!.timeoutMs).toBe(1);
  });
});
