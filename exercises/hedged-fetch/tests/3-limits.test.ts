// Each rule's tests run side by side (test.concurrent), each with its own scope (the `h` fixture, harness.ts);
// H11's tests watch the whole process (its timers, its unhandled rejections) and run one at a time.
import { describe, expect } from 'vitest';
import { hedgedFetch } from '../src/hedge.ts';
import {
  delay,
  manualClock,
  quiet,
  rejectsWithin,
  resolvesWithin,
  SETTLE_MS,
  settleWithin,
  show,
  spyBudget,
  started,
  test,
  unhandledDuring,
} from './harness.ts';

const isTimeoutError = (e: unknown) => typeof e === 'object' && e !== null && (e as Error).name === 'TimeoutError';

describe('cancellation, deadline, failures and clean-up', () => {
  test.concurrent('H8 an already aborted signal rejects with its reason and sends nothing', async ({ h }) => {
    const reason = new Error('caller gave up');
    const b = spyBudget();
    const s = h.scripted({ 1: { after: 1, value: 'one' } }, b.log);
    const { error } = await rejectsWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 20, budget: b.budget, signal: AbortSignal.abort(reason) }),
      quiet(150),
      'an already aborted signal',
    );
    expect(error, 'the rejection (the signal’s reason)').toBe(reason);
    expect(b.log, 'budget calls and attempts').toEqual([]);
  });

  // Known before anything is sent, so a hedgedFetch that checks it before building its promise
  // throws it out of the call itself; a test that only awaits the call cannot tell that from a rejection.
  test.concurrent('H8 an already aborted signal is a rejected promise, never a synchronous throw', async ({ h }) => {
    const cases: Array<[string, unknown, string | undefined]> = [
      ['AbortSignal.abort(new Error(…)) on a GET', new Error('caller gave up'), undefined],
      ["AbortSignal.abort('gone') on a GET (a reason that is not an Error)", 'gone', undefined],
      ['AbortSignal.abort(new Error(…)) on a POST', new Error('caller gave up'), 'POST'],
    ];
    for (const [label, reason, method] of cases) {
      const b = spyBudget();
      const s = h.scripted({ 1: { after: 1, value: 'one' } }, b.log);
      const what = `${label}, calling hedgedFetch without awaiting it`;
      const opts = { hedgeDelayMs: 20, budget: b.budget, signal: AbortSignal.abort(reason), ...(method ? { method } : {}) };
      const { error } = await rejectsWithin(
        started(() => hedgedFetch(s.request, opts), what),
        quiet(150),
        what,
      );
      expect(error, `the rejection (the signal’s reason), ${what}`).toBe(reason);
      expect(b.log, `budget calls and attempts, ${what}`).toEqual([]);
    }
  });

  test.concurrent('H8 the caller aborting aborts both attempts and rejects at once, even if they ignore it', async ({ h }) => {
    const s = h.scripted({ 1: 'deaf', 2: 'deaf' });
    const ac = new AbortController();
    const p = hedgedFetch(s.request, { hedgeDelayMs: 15, budget: spyBudget().budget, signal: ac.signal });
    await delay(45);
    expect(s.calls.length, 'attempts sent before the caller aborted').toBe(2);
    const reason = new Error('user left');
    const abortedAt = performance.now();
    ac.abort(reason);
    const { error, at } = await rejectsWithin(p, SETTLE_MS, 'caller aborts while both attempts run', abortedAt);
    expect(error, 'the rejection (the signal’s reason)').toBe(reason);
    expect(at, 'ms from the caller’s abort to the rejection').toBeLessThanOrEqual(300);
    expect(
      s.calls.map((c) => c.signal.aborted),
      'attempt signals aborted after the caller aborted',
    ).toEqual([true, true]);
  });

  test.concurrent('H8 no hedge is sent after the caller aborted', async ({ h }) => {
    const b = spyBudget();
    const s = h.scripted({ 1: 'hang' }, b.log);
    const ac = new AbortController();
    const p = hedgedFetch(s.request, { hedgeDelayMs: 30, budget: b.budget, signal: ac.signal });
    p.catch(() => {});
    await delay(5);
    ac.abort(new Error('user left'));
    await settleWithin(p, 200);
    await delay(Math.max(0, 70 - s.elapsed()));
    expect(b.log, 'budget calls and attempts by 70 ms when the caller aborted at 5 ms (hedgeDelayMs 30)').toEqual(['recordRequest', 'attempt 1']);
  });

  test.concurrent('H9 a deadline already passed rejects with a TimeoutError and sends nothing', async ({ h }) => {
    for (const deadlineAt of [0, -5]) {
      const b = spyBudget();
      const s = h.scripted({ 1: { after: 1, value: 'one' } }, b.log);
      const { error } = await rejectsWithin(
        hedgedFetch(s.request, { hedgeDelayMs: 20, budget: b.budget, deadlineAt, now: () => 0 }),
        quiet(150),
        `deadlineAt ${deadlineAt} at now() 0`,
      );
      expect(isTimeoutError(error), `the rejection is a TimeoutError (got ${show(error)})`).toBe(true);
      expect(b.log, `budget calls and attempts with deadlineAt ${deadlineAt} at now() 0`).toEqual([]);
    }
  });

  test.concurrent('H9 a deadline already passed is a rejected promise, never a synchronous throw', async ({ h }) => {
    for (const [deadlineAt, method] of [
      [0, 'GET'],
      [-5, 'GET'],
      [0, 'POST'],
    ] as const) {
      const b = spyBudget();
      const s = h.scripted({ 1: { after: 1, value: 'one' } }, b.log);
      const what = `deadlineAt ${deadlineAt} at now() 0 on a ${method}, calling hedgedFetch without awaiting it`;
      const { error } = await rejectsWithin(
        started(() => hedgedFetch(s.request, { hedgeDelayMs: 20, budget: b.budget, deadlineAt, now: () => 0, method }), what),
        quiet(150),
        what,
      );
      expect(isTimeoutError(error), `the rejection is a TimeoutError (got ${show(error)}), ${what}`).toBe(true);
      expect(b.log, `budget calls and attempts, ${what}`).toEqual([]);
    }
  });

  test.concurrent('H9 at the deadline both attempts are aborted and the call rejects with a TimeoutError', async ({ h }) => {
    const clock = manualClock(1000);
    const s = h.scripted({ 1: 'deaf', 2: 'deaf' });
    const started = performance.now();
    const p = hedgedFetch(s.request, { hedgeDelayMs: 15, budget: spyBudget().budget, deadlineAt: 1080, now: clock.now });
    const { error, at } = await rejectsWithin(p, quiet(350), 'two attempts running into a deadline 80 ms away', started);
    expect(isTimeoutError(error), `the rejection is a TimeoutError (got ${show(error)})`).toBe(true);
    expect(at, 'ms until the call rejected, with the deadline 80 ms away').toBeGreaterThanOrEqual(70);
    expect(s.calls.length, 'attempts sent (80 ms left, hedgeDelayMs 15)').toBe(2);
    expect(
      s.calls.map((c) => c.signal.aborted),
      'attempt signals aborted at the deadline',
    ).toEqual([true, true]);
  });

  test.concurrent('H9 sends no hedge when less than hedgeDelayMs is left before the deadline', async ({ h }) => {
    const clock = manualClock(0);
    const b = spyBudget();
    const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: { after: 1, value: 'two' } }, b.log);
    const p = hedgedFetch(s.request, { hedgeDelayMs: 30, budget: b.budget, deadlineAt: 400, now: clock.now });
    await delay(5);
    clock.t = 380; // 20 ms left by the clock when the hedge is due: less than hedgeDelayMs
    const value = await resolvesWithin(p, quiet(300), 'first answers at 60 ms, 20 ms left when the hedge is due');
    expect(value, 'value of the call').toBe('one');
    expect(
      b.log.join(', '),
      'budget calls and attempts (a hedge that cannot get hedgeDelayMs before the deadline is not sent, and the budget is not asked)',
    ).toBe('recordRequest, attempt 1');
  });

  test.concurrent('H9 still hedges when more than hedgeDelayMs is left', async ({ h }) => {
    const clock = manualClock(0);
    const s = h.scripted({ 1: { after: 60, value: 'one' }, 2: 'hang' });
    const value = await resolvesWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 30, budget: spyBudget().budget, deadlineAt: 400, now: clock.now }),
      quiet(150),
      '400 ms left, hedgeDelayMs 30',
    );
    expect(value, 'value of the call').toBe('one');
    expect(s.calls.length, 'attempts sent with 400 ms left when the hedge was due').toBe(2);
  });

  test.concurrent('H9 a deadline more than 2^31 - 1 ms away does not cut the call short', async ({ h }) => {
    // setTimeout fires such a delay after about 1 ms; AbortSignal.timeout does too below 2^32 ms
    // and throws a RangeError from 2^32 ms. Both would end the call long before its deadline.
    for (const left of [2 ** 31 + 1000, 2 ** 32 + 1000]) {
      const clock = manualClock(0);
      const s = h.scripted({ 1: { after: 30, value: 'one' } });
      const p = hedgedFetch(s.request, { hedgeDelayMs: 100, budget: spyBudget().budget, deadlineAt: left, now: clock.now });
      const value = await resolvesWithin(p, quiet(150), `deadlineAt ${left} ms away, first attempt answers after 30 ms`);
      expect(value, `value of the call with the deadline ${left} ms away`).toBe('one');
    }
  });

  test.concurrent('H10 when the first attempt fails before the delay, the hedge is sent at once', async ({ h }) => {
    const s = h.scripted({ 1: { after: 5, error: new Error('first failed') }, 2: { after: 5, value: 'two' } });
    const value = await resolvesWithin(hedgedFetch(s.request, { hedgeDelayMs: 500, budget: spyBudget().budget }), 250, 'first fails at 5 ms, hedgeDelayMs 500');
    expect(value, 'value of the call').toBe('two');
    expect(s.calls[1]?.startedAt, 'ms until the hedge started after the first failed at 5 ms (hedgeDelayMs 500)').toBeLessThan(250);
  });

  test.concurrent('H10 when the hedge may not be sent, the first failure is the result', async ({ h }) => {
    const boom = new Error('first failed');
    const s = h.scripted({ 1: { after: 5, error: boom }, 2: { after: 1, value: 'two' } });
    const { error, at } = await rejectsWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 500, budget: spyBudget([false]).budget }),
      250,
      'first fails at 5 ms, budget refuses',
    );
    expect(error, 'the rejection').toBe(boom);
    expect(at, 'ms until the call rejected (hedgeDelayMs 500)').toBeLessThan(250);
    expect(s.calls.length, 'attempts sent').toBe(1);
  });

  // An attempt whose request() throws instead of returning a promise (a client that checks its
  // arguments first) has failed like one that rejects. A hedgedFetch that calls request() bare in
  // its Promise executor lets that throw reject the whole call at once, unhedged.
  test.concurrent('H10 a first attempt that throws synchronously has failed: the hedge is sent at once', async ({ h }) => {
    const thrown = new TypeError('no replica for this key');
    const s = h.scripted({ 1: { throws: thrown }, 2: { after: 5, value: 'two' } });
    const what = 'the first attempt threw synchronously, hedgeDelayMs 500';
    const value = await resolvesWithin(
      started(() => hedgedFetch(s.request, { hedgeDelayMs: 500, budget: spyBudget().budget }), what),
      250,
      what,
    );
    expect(value, `value of the call (${what})`).toBe('two');
    expect(s.calls[1]?.startedAt, `ms until the hedge started (${what})`).toBeLessThan(250);

    const refused = h.scripted({ 1: { throws: thrown }, 2: { after: 1, value: 'two' } });
    const why = 'the first attempt threw synchronously and the budget refused the hedge';
    const { error } = await rejectsWithin(
      started(() => hedgedFetch(refused.request, { hedgeDelayMs: 500, budget: spyBudget([false]).budget }), why),
      250,
      why,
    );
    expect(error, `the rejection (${why})`).toBe(thrown);
    expect(refused.calls.length, `attempts sent (${why})`).toBe(1);
  });

  // H10's early hedge goes out on the same conditions as the timer's: H9's deadline check included.
  test.concurrent('H10 a first attempt that fails early is not hedged when less than hedgeDelayMs is left before the deadline', async ({ h }) => {
    const boom = new Error('first failed');
    const b = spyBudget();
    const s = h.scripted({ 1: { after: 5, error: boom }, 2: { after: 1, value: 'two' } }, b.log);
    // now() reads 0 until the first attempt is sent and 900 after: 1000 ms left at the start, 100 ms when
    // it fails. hedgeDelayMs 300 keeps the hedge timer far behind the failure, even on a loaded machine.
    const now = () => (s.calls.length === 0 ? 0 : 900);
    const what = 'the first attempt fails at 5 ms with 100 ms left before the deadline (hedgeDelayMs 300)';
    const { error } = await rejectsWithin(hedgedFetch(s.request, { hedgeDelayMs: 300, budget: b.budget, deadlineAt: 1000, now }), quiet(150), what);
    expect(error, `the rejection (${what}: no hedge may go, so the first failure is the result)`).toBe(boom);
    expect(b.log.join(', '), `budget calls and attempts (${what}: no hedge is sent and the budget is not asked)`).toBe('recordRequest, attempt 1');
  });

  // The hedge's request() may throw synchronously as well: from the hedge timer, or from the first
  // attempt's failure handler. Either way it is one more failed attempt, not an escaped exception.
  test.concurrent('H10 a hedge whose request() throws synchronously has failed too', async ({ h }) => {
    const thrown = new TypeError('no second replica');
    const late = new Error('first failed late');
    const afterTimer = h.scripted({ 1: { after: 60, error: late }, 2: { throws: thrown } });
    const early = h.scripted({ 1: { after: 5, error: new Error('first failed early') }, 2: { throws: thrown } });
    const firstWins = h.scripted({ 1: { after: 60, value: 'one' }, 2: { throws: thrown } });
    const opts = { hedgeDelayMs: 15, budget: spyBudget().budget };
    const [a, b, c] = await Promise.all([
      rejectsWithin(
        started(() => hedgedFetch(afterTimer.request, opts), 'the hedge threw at 15 ms, the first attempt fails at 60 ms'),
        quiet(300),
        'the hedge threw synchronously at 15 ms, the first attempt fails at 60 ms',
      ),
      rejectsWithin(
        started(() => hedgedFetch(early.request, { ...opts, hedgeDelayMs: 300 }), 'the first attempt fails at 5 ms, the hedge sent then throws'),
        quiet(150),
        'the first attempt fails at 5 ms (hedgeDelayMs 300), the hedge sent at once throws synchronously',
      ),
      resolvesWithin(
        started(() => hedgedFetch(firstWins.request, opts), 'the hedge threw at 15 ms, the first attempt answers at 60 ms'),
        quiet(300),
        'the hedge threw synchronously at 15 ms, the first attempt answers at 60 ms',
      ),
    ]);
    expect(a.error, 'the rejection when the hedge threw and the first attempt then failed (the last failure)').toBe(late);
    expect(b.error, 'the rejection when the first attempt failed and the hedge then threw (the last failure)').toBe(thrown);
    expect(c, 'value of the call when the hedge threw and the first attempt then answered').toBe('one');
  });

  test.concurrent('H10 when both attempts fail, the call rejects with the last failure', async ({ h }) => {
    const [e1, e2, e3, e4] = ['first', 'hedge', 'first', 'hedge'].map((w, i) => new Error(`${w} failed (${i})`));
    // The first attempt fails 120 ms after the hedge: a margin no loaded machine's timers can swallow.
    // hedgeDelayMs 300 is well after the first failure; a helper that waits for it still ends in time.
    const firstLast = h.scripted({ 1: { after: 150, error: e1! }, 2: { after: 10, error: e2! } });
    const hedgeLast = h.scripted({ 1: { after: 5, error: e3! }, 2: { after: 10, error: e4! } });
    const [a, b] = await Promise.all([
      rejectsWithin(hedgedFetch(firstLast.request, { hedgeDelayMs: 20, budget: spyBudget().budget }), 800, 'hedge fails at 30 ms, first at 150 ms'),
      rejectsWithin(hedgedFetch(hedgeLast.request, { hedgeDelayMs: 300, budget: spyBudget().budget }), 800, 'first fails at 5 ms, hedge 10 ms later'),
    ]);
    expect(a.error, 'the rejection when the first attempt failed last').toBe(e1);
    expect(b.error, 'the rejection when the hedge failed last').toBe(e4);
  });

  test('H11 no timer is left running once the first attempt has answered', async ({ h }) => {
    const timers = h.watchTimers();
    const s = h.scripted({ 1: { after: 5, value: 'one' } });
    await resolvesWithin(
      hedgedFetch(s.request, { hedgeDelayMs: 400, budget: spyBudget().budget, deadlineAt: 5000, now: () => 0 }),
      quiet(150),
      'a fast answer',
    );
    expect(timers.left(), 'timers of yours still keeping the process alive after the call resolved (hedge delay 400 ms, deadline 5 s away)').toBe(0);
  });

  test('H11 no timer is left running after a hedge won, all failed or the caller aborted', async ({ h }) => {
    const timers = h.watchTimers();
    const won = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } });
    const failed = h.scripted({ 1: { after: 5, error: new Error('a') }, 2: { after: 5, error: new Error('b') } });
    const aborted = h.scripted({ 1: 'hang', 2: 'hang' });
    const ac = new AbortController();
    const opts = { hedgeDelayMs: 15, budget: spyBudget().budget, deadlineAt: 5000, now: () => 0 };
    const [won1, failed1, aborted1] = await Promise.all([
      settleWithin(hedgedFetch(won.request, opts), quiet(150)),
      settleWithin(hedgedFetch(failed.request, opts), quiet(150)),
      settleWithin(hedgedFetch(aborted.request, { ...opts, signal: ac.signal }), quiet(150)),
      delay(30).then(() => ac.abort()),
    ]);
    expect([won1.kind, failed1.kind, aborted1.kind], 'outcomes of the three calls').toEqual(['resolved', 'rejected', 'rejected']);
    expect(timers.left(), 'timers of yours still keeping the process alive after the three calls settled (deadline 5 s away)').toBe(0);
  });

  test('H11 an aborted loser leaves no unhandled rejection', async ({ h }) => {
    const unhandled = await unhandledDuring(async () => {
      const s1 = h.scripted({ 1: 'hang', 2: { after: 5, value: 'two' } });
      const s2 = h.scripted({ 1: { after: 40, value: 'one' }, 2: 'hang' });
      const s3 = h.scripted({ 1: { after: 5, error: new Error('a') }, 2: { after: 5, error: new Error('b') } });
      const s4 = h.scripted({ 1: 'hang', 2: 'hang' });
      const ac = new AbortController();
      const opts = { hedgeDelayMs: 15, budget: spyBudget().budget };
      await Promise.all([
        settleWithin(hedgedFetch(s1.request, opts), quiet(150)),
        settleWithin(hedgedFetch(s2.request, opts), quiet(150)),
        settleWithin(hedgedFetch(s3.request, opts), quiet(150)),
        settleWithin(hedgedFetch(s4.request, { ...opts, signal: ac.signal }), quiet(150)),
        delay(30).then(() => ac.abort(new Error('user left'))),
      ]);
    });
    expect(
      unhandled.map((e) => show(e)),
      'unhandled rejections while losers were aborted',
    ).toEqual([]);
  });
});
