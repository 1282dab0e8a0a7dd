// Each rule's tests run side by side (test.concurrent), each with its own scope (the `h` fixture, harness.ts).
import { describe, expect } from 'vitest';
import { hedgedFetch } from '../src/hedge.ts';
import { delay, quiet, rejectsWithin, resolvesWithin, spyBudget, test } from './harness.ts';

describe('when to hedge', () => {
  test('H1 sends no hedge when the first attempt answers before the delay', async ({ h }) => {
    const s = h.scripted({ 1: { after: 5, value: 'one' } });
    const b = spyBudget();
    const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 40, budget: b.budget }), quiet(150), 'first answers at 5 ms, delay 40 ms');
    expect(value, 'value of the call').toBe('one');
    await delay(Math.max(0, 90 - s.elapsed())); // well past the 40 ms delay
    expect(s.calls.length, 'attempts sent by 90 ms (the first answered at 5 ms, before the 40 ms delay)').toBe(1);
    expect(b.count('tryHedge'), 'budget.tryHedge() calls by 90 ms').toBe(0);
  });

  test('H2 sends the hedge only after hedgeDelayMs, as attempt 2', async ({ h }) => {
    const s = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } });
    const b = spyBudget();
    const p = hedgedFetch(s.request, { hedgeDelayMs: 40, budget: b.budget });
    await delay(20);
    expect(s.calls.length, 'attempts sent 20 ms into a call with hedgeDelayMs 40').toBe(1);
    await resolvesWithin(p, quiet(200), 'first hangs, delay 40 ms');
    expect(s.calls.length, 'attempts sent').toBe(2);
    expect(
      s.calls.map((c) => c.attempt),
      'attempt numbers given to request()',
    ).toEqual([1, 2]);
    expect(s.calls[1]!.startedAt, 'ms until the hedge started (hedgeDelayMs 40)').toBeGreaterThanOrEqual(35);
  });

  test.concurrent('H3 resolves with the hedge when the hedge answers first', async ({ h }) => {
    const s = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } });
    const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 20, budget: spyBudget().budget }), quiet(150), 'first hangs, hedge answers');
    expect(value, 'value of the call when only the hedge answered').toBe('two');
  });

  test.concurrent('H3 resolves with the first attempt when it answers after the hedge was sent', async ({ h }) => {
    const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: 'hang' });
    const value = await resolvesWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 20, budget: spyBudget().budget }),
      quiet(200),
      'first answers at 60 ms, hedge hangs',
    );
    expect(s.calls.length, 'attempts sent').toBe(2);
    expect(value, 'value of the call').toBe('one');
  });

  test.concurrent('H3 a failure does not settle the call while the other attempt may still succeed', async ({ h }) => {
    const hedgeFails = h.scripted({ 1: { after: 70, value: 'one' }, 2: { after: 5, error: new Error('hedge failed') } });
    const firstFails = h.scripted({ 1: { after: 50, error: new Error('first failed') }, 2: { after: 70, value: 'two' } });
    const [a, b] = await Promise.all([
      resolvesWithin(
        hedgedFetch(hedgeFails.request, { hedgeDelayMs: 20, budget: spyBudget().budget }),
        quiet(250),
        'hedge fails at 25 ms, first answers at 70 ms',
      ),
      resolvesWithin(
        hedgedFetch(firstFails.request, { hedgeDelayMs: 20, budget: spyBudget().budget }),
        quiet(250),
        'first fails at 50 ms, hedge answers at 90 ms',
      ),
    ]);
    expect(a, 'value when the hedge failed first and the first attempt then answered').toBe('one');
    expect(b, 'value when the first attempt failed after the hedge was sent and the hedge then answered').toBe('two');
  });

  test.concurrent('H4 aborts the first attempt when the hedge wins, and not the winner', async ({ h }) => {
    const s = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } });
    await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 20, budget: spyBudget().budget }), quiet(150), 'hedge wins');
    const settledAt = s.elapsed();
    await delay(20);
    const [first, hedge] = s.calls;
    expect(first?.signal.aborted, "the first attempt's signal 20 ms after the hedge won").toBe(true);
    expect(first!.abortedAt! - settledAt, "ms between the result and the loser's abort").toBeLessThanOrEqual(20);
    expect(hedge?.signal.aborted, "the winning hedge's signal (aborting it would cut the body it is still sending)").toBe(false);
  });

  test.concurrent('H4 aborts the hedge when the first attempt wins, and not the winner', async ({ h }) => {
    const s = h.scripted({ 1: { after: 50, value: 'one' }, 2: 'hang' });
    await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 20, budget: spyBudget().budget }), quiet(150), 'first wins after the hedge was sent');
    await delay(20);
    const [first, hedge] = s.calls;
    expect(hedge?.signal.aborted, "the hedge's signal 20 ms after the first attempt won").toBe(true);
    expect(first?.signal.aborted, "the winning first attempt's signal").toBe(false);
  });

  test.concurrent('H5 never hedges POST, PATCH, PUT, DELETE or a GET marked idempotent: false', async ({ h }) => {
    const cases = [{ method: 'POST' }, { method: 'PATCH' }, { method: 'PUT' }, { method: 'DELETE' }, { method: 'GET', idempotent: false }];
    await Promise.all(
      cases.map(async (extra) => {
        const s = h.scripted({ 1: { after: 60, value: 'one' } });
        const b = spyBudget();
        const label = `${extra.method}${'idempotent' in extra ? ' with idempotent: false' : ''}`;
        const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 15, budget: b.budget, ...extra }), quiet(300), label);
        expect(value, `value of a ${label}`).toBe('one');
        expect(s.calls.length, `attempts sent for a ${label} that took 60 ms with hedgeDelayMs 15`).toBe(1);
        expect(b.count('tryHedge'), `budget.tryHedge() calls for a ${label}`).toBe(0);
      }),
    );
  });

  test.concurrent('H5 a non-idempotent call that fails is not sent again', async ({ h }) => {
    const boom = new Error('first failed');
    const s = h.scripted({ 1: { after: 5, error: boom }, 2: { after: 5, value: 'two' } });
    const { error, at } = await rejectsWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 500, budget: spyBudget().budget, method: 'POST' }),
      250,
      'a POST that fails at 5 ms',
    );
    expect(error, 'the rejection of a POST whose only attempt failed').toBe(boom);
    expect(at, 'ms until the failed POST rejected (hedgeDelayMs 500)').toBeLessThan(250);
    await delay(20);
    expect(s.calls.length, 'attempts sent for the POST').toBe(1);
  });

  test.concurrent('H5 hedges GET, HEAD and OPTIONS by default, and any method marked idempotent: true', async ({ h }) => {
    const cases = [{}, { method: 'HEAD' }, { method: 'OPTIONS' }, { method: 'PUT', idempotent: true }, { method: 'POST', idempotent: true }];
    await Promise.all(
      cases.map(async (extra) => {
        const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: 'hang' });
        const label = 'method' in extra ? `${extra.method}${'idempotent' in extra ? ' with idempotent: true' : ''}` : 'call without a method (GET)';
        await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 15, budget: spyBudget().budget, ...extra }), quiet(250), label);
        expect(s.calls.length, `attempts sent for a ${label} that took 60 ms with hedgeDelayMs 15`).toBe(2);
      }),
    );
  });

  test.concurrent('H5 compares the method case-insensitively: get, Head and options are hedged, post and Post are not', async ({ h }) => {
    const cases: Array<[method: string, hedged: boolean]> = [
      ['get', true],
      ['Head', true],
      ['options', true],
      ['post', false],
      ['Post', false],
      ['delete', false],
    ];
    await Promise.all(
      cases.map(async ([method, hedged]) => {
        const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: 'hang' });
        const b = spyBudget();
        const label = `method '${method}'`;
        const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 15, budget: b.budget, method }), quiet(300), label);
        expect(value, `value of a call with ${label}`).toBe('one');
        expect(
          s.calls.length,
          `attempts sent for a call with ${label} that took 60 ms with hedgeDelayMs 15 (${hedged ? `'${method.toUpperCase()}' is hedged` : `'${method.toUpperCase()}' is never hedged`})`,
        ).toBe(hedged ? 2 : 1);
        if (!hedged) expect(b.count('tryHedge'), `budget.tryHedge() calls for a call with ${label}`).toBe(0);
      }),
    );
  });
});
