import { describe, expect, test } from 'vitest';
import { fetchWithRetry, fullJitterDelay, RetryError } from '../src/retry.ts';
import {
  clock,
  delay,
  pendingSleep,
  recordingSleep,
  rejection,
  response,
  scriptedFetch,
  settles,
  settleWithin,
  started,
  until,
  URL_,
  watchGlobal,
  type Step,
} from './helpers.ts';

function setup(steps: Step[], random: () => number = () => 0.5) {
  const c = clock(0);
  const f = scriptedFetch(steps);
  const s = recordingSleep(c);
  const opts = { deadlineAt: 1_000_000, now: c.now, random, sleep: s.sleep, fetch: f.fetch };
  return { c, f, s, opts };
}

/**
 * How soon a call must end once the caller aborted. A correct helper takes a few ms; a loaded machine,
 * or strict grading's two processes waiting for a core, can take a hundred or more. A helper that
 * misses the abort waits out the 5 s attempt timeout or a 9 s sleep these tests set, so half a second
 * tells them apart with room on both sides (each wrong helper costs it once: the tests run side by
 * side). Also how long a test waits for a step it needs before aborting (the first fetch call).
 */
const PROMPT_MS = 500;

const sequence = (values: number[]) => {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
};

describe('timing', () => {
  test('R7 fullJitterDelay is random() * min(capMs, baseMs * 2^(failures-1))', () => {
    expect(
      fullJitterDelay(1, 100, 2000, () => 0.5),
      'fullJitterDelay(1, 100, 2000, () => 0.5)',
    ).toBeCloseTo(50, 9);
    expect(
      fullJitterDelay(3, 100, 2000, () => 0.25),
      'fullJitterDelay(3, 100, 2000, () => 0.25)',
    ).toBeCloseTo(100, 9);
    expect(
      fullJitterDelay(5, 100, 2000, () => 0.5),
      'fullJitterDelay(5, 100, 2000, () => 0.5)',
    ).toBeCloseTo(800, 9);
    expect(
      fullJitterDelay(6, 100, 2000, () => 0.5),
      'fullJitterDelay(6, 100, 2000, () => 0.5) (capped)',
    ).toBeCloseTo(1000, 9);
    expect(
      fullJitterDelay(40, 100, 2000, () => 0.999),
      'fullJitterDelay(40, 100, 2000, () => 0.999)',
    ).toBeCloseTo(1998, 9);
    expect(
      fullJitterDelay(2, 100, 2000, () => 0),
      'fullJitterDelay(2, 100, 2000, () => 0)',
    ).toBe(0);
  });

  test('R7 waits the full-jitter delay before each retry, through sleep', async () => {
    const { f, s, opts } = setup([503, 502, 504, 200], sequence([0.1, 0.9, 0.5]));
    const res = await fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 4, baseMs: 100, capMs: 2000 }).catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome').toBe(200);
    expect(f.calls.length, 'fetch calls').toBe(4);
    expect(s.waits.length, `sleep calls (waits seen: ${JSON.stringify(s.waits)})`).toBe(3);
    const expected = [0.1 * 100, 0.9 * 200, 0.5 * 400];
    s.waits.forEach((w, i) => {
      expect(w, `wait before retry ${i + 1} (all waits: ${JSON.stringify(s.waits)})`).toBeCloseTo(expected[i]!, 6);
    });
  });

  test('R7 uses the default baseMs 100 and capMs 2000', async () => {
    const { s, opts } = setup([new TypeError('x'), 503, 503, 503, 503, 503, 200], () => 0.5);
    await fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 7 }).catch(() => {});
    const expected = [50, 100, 200, 400, 800, 1000];
    expect(s.waits.length, `sleep calls (waits seen: ${JSON.stringify(s.waits)})`).toBe(6);
    s.waits.forEach((w, i) => {
      expect(w, `wait before retry ${i + 1} (all waits: ${JSON.stringify(s.waits)})`).toBeCloseTo(expected[i]!, 6);
    });
  });

  test('R8 waits at least Retry-After (seconds) and at most that plus the jitter', async () => {
    for (const status of [429, 503]) {
      const { f, s, opts } = setup([{ status, headers: { 'Retry-After': '2' } }, 200], () => 0.5);
      const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome after a ${status} with Retry-After: 2`).toBe(200);
      expect(f.calls.length, 'fetch calls').toBe(2);
      expect(s.waits.length, 'sleep calls').toBe(1);
      const w = s.waits[0]!;
      expect(w, `wait after a ${status} with Retry-After: 2 (observed ${w} ms)`).toBeGreaterThanOrEqual(2000);
      expect(w, `wait after a ${status} with Retry-After: 2 (observed ${w} ms)`).toBeLessThanOrEqual(2050);
    }
  });

  test('R8 reads a Retry-After HTTP-date', async () => {
    const when = new Date(Math.ceil(Date.now() / 1000) * 1000 + 4000);
    const { s, opts } = setup([{ status: 503, headers: { 'Retry-After': when.toUTCString() } }, 200], () => 0.5);
    await fetchWithRetry(URL_, undefined, opts).catch(() => {});
    const asked = when.getTime() - Date.now();
    expect(s.waits.length, 'sleep calls').toBe(1);
    const w = s.waits[0]!;
    expect(w, `wait for Retry-After: ${when.toUTCString()} (about ${asked} ms away; observed ${w} ms)`).toBeGreaterThanOrEqual(asked - 250);
    expect(w, `wait for Retry-After: ${when.toUTCString()} (about ${asked} ms away; observed ${w} ms)`).toBeLessThanOrEqual(asked + 50 + 250);
  });

  test('R8 ignores a malformed Retry-After and uses the jitter wait', async () => {
    const { s, opts } = setup([{ status: 503, headers: { 'Retry-After': 'soon' } }, 200], () => 0.5);
    await fetchWithRetry(URL_, undefined, opts).catch(() => {});
    expect(s.waits.length, 'sleep calls').toBe(1);
    expect(s.waits[0], `wait after Retry-After: soon (observed ${s.waits[0]})`).toBeCloseTo(50, 6);
  });

  // R8 names two statuses: a 408, 502 or 504 that carries Retry-After still waits the R7 jitter.
  test('R8 ignores Retry-After on a 408, 502 or 504', async () => {
    for (const status of [408, 502, 504]) {
      const { f, s, opts } = setup([{ status, headers: { 'Retry-After': '5' } }, 200], () => 0.5);
      const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome after a ${status} with Retry-After: 5`).toBe(200);
      expect(f.calls.length, `fetch calls after a ${status} with Retry-After: 5`).toBe(2);
      expect(s.waits.length, `sleep calls after a ${status} with Retry-After: 5`).toBe(1);
      expect(s.waits[0], `wait after a ${status} with Retry-After: 5 (observed ${s.waits[0]} ms; R8 is only for 429 and 503)`).toBeCloseTo(50, 6);
    }
  });

  // delay-seconds is digits only. A value that is not is ignored (the R7 wait, 50 ms here), unless a
  // date parser reads it as a date, which for these values is one in the past: no wait asked, so
  // anything from 0 to the R7 wait passes.
  test('R8 does not read -5, 1e3, 0x10 or 1.5 as delay-seconds', async () => {
    for (const value of ['-5', '1e3', '0x10', '1.5']) {
      const { f, s, opts } = setup([{ status: 503, headers: { 'Retry-After': value } }, 200], () => 0.5);
      const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome after a 503 with Retry-After: ${value}`).toBe(200);
      expect(f.calls.length, `fetch calls after a 503 with Retry-After: ${value}`).toBe(2);
      expect(s.waits.length, `sleep calls after a 503 with Retry-After: ${value}`).toBe(1);
      const w = s.waits[0]!;
      expect(w, `wait after Retry-After: ${value} (observed ${w} ms; delay-seconds is digits only)`).toBeGreaterThanOrEqual(0);
      expect(w, `wait after Retry-After: ${value} (observed ${w} ms; delay-seconds is digits only)`).toBeLessThanOrEqual(50);
    }
  });

  test('R8 a Retry-After date in the past asks for no wait', async () => {
    const when = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const { s, opts } = setup([{ status: 429, headers: { 'Retry-After': when.toUTCString() } }, 200], () => 0.5);
    await fetchWithRetry(URL_, undefined, opts).catch(() => {});
    expect(s.waits.length, 'sleep calls').toBe(1);
    const w = s.waits[0]!;
    expect(w, `wait for Retry-After: ${when.toUTCString()}, a minute ago (observed ${w} ms)`).toBeGreaterThanOrEqual(0);
    expect(w, `wait for Retry-After: ${when.toUTCString()}, a minute ago (observed ${w} ms)`).toBeLessThanOrEqual(50);
  });

  test('R9 gives up with no-time-left instead of sleeping past the deadline', async () => {
    const { f, s, opts } = setup([503, 200], () => 0.99);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, baseMs: 200, deadlineAt: 100 }), RetryError, 'a 198 ms wait with 100 ms left');
    expect(s.waits.length, `sleep calls (waits: ${JSON.stringify(s.waits)})`).toBe(0);
    expect(f.calls.length, 'fetch calls').toBe(1);
    expect(err.reason, 'reason').toBe('no-time-left');
  });

  test('R9 treats a wait that ends exactly at the deadline as no time left', async () => {
    const { s, opts } = setup([502, 200], () => 0.5);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 50 }), RetryError, 'a 50 ms wait with 50 ms left');
    expect(s.waits.length, 'sleep calls').toBe(0);
    expect(err.reason, 'reason').toBe('no-time-left');
  });

  test('R9 still retries when the wait ends before the deadline', async () => {
    const { f, opts } = setup([502, 200], () => 0.5);
    const res = await fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 51 }).catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome with 51 ms left and a 50 ms wait').toBe(200);
    expect(f.calls.length, 'fetch calls').toBe(2);
  });

  test('R9 counts a Retry-After wait against the deadline', async () => {
    const { s, opts } = setup([{ status: 429, headers: { 'Retry-After': '5' } }, 200], () => 0.5);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 3000 }), RetryError, 'Retry-After: 5 with 3 s left');
    expect(s.waits.length, 'sleep calls').toBe(0);
    expect(err.reason, 'reason').toBe('no-time-left');
  });

  test('R9 reads the clock after the attempt, not before it', async () => {
    const c = clock(0);
    // The attempt itself takes 900 ms on the injected clock: 100 ms are left for a 100 ms wait.
    const f = scriptedFetch([() => (c.advance(900), response(503)), 200]);
    const s = recordingSleep(c);
    const err = await rejection(
      fetchWithRetry(URL_, undefined, { deadlineAt: 1000, baseMs: 200, now: c.now, random: () => 0.5, sleep: s.sleep, fetch: f.fetch }),
      RetryError,
      'a 100 ms wait after an attempt that ended at 900 ms, deadline 1000',
    );
    expect(s.waits, 'waits (the attempt ended at 900 ms on now(); 900 + 100 reaches the deadline 1000)').toEqual([]);
    expect(err.reason, 'reason').toBe('no-time-left');
    expect(f.calls.length, 'fetch calls').toBe(1);
  });

  test('R9 no-time-left carries the status of the last attempt', async () => {
    const { s, opts } = setup([503, 200], () => 0.99);
    const err = await rejection(
      fetchWithRetry(URL_, undefined, { ...opts, baseMs: 200, deadlineAt: 100 }),
      RetryError,
      'a 198 ms wait with 100 ms left after a 503',
    );
    expect(s.waits.length, 'sleep calls').toBe(0);
    expect(err.reason, 'reason').toBe('no-time-left');
    expect(err.status, 'RetryError.status after a 503 then no time left').toBe(503);
  });

  // R10's and R14's tests wait on real time (attempt timeouts, the caller's abort): each rule's tests
  // run side by side (test.concurrent), so a helper that never ends a call waits out one short guard
  // per rule, not one per test. Each test has its own fetch, clock and sleep; none touches a global.
  test.concurrent('R10 aborts each attempt after attemptTimeoutMs', async () => {
    const { f, opts } = setup(['hang', 'hang'], () => 0.5);
    const p = fetchWithRetry(URL_, undefined, { ...opts, attemptTimeoutMs: 60, maxAttempts: 2 });
    await settles(p, 300, 'two hanging attempts (attemptTimeoutMs 60, maxAttempts 2)', f.calls);
    const err = await rejection(p, RetryError, 'two hanging attempts');
    expect(err.reason, 'reason').toBe('gave-up');
    expect(f.calls.length, 'fetch calls').toBe(2);
    // Measured from the fetch call, which a helper makes just after it starts the attempt's timer:
    // on a busy machine (or across strict grading's two processes) the call can come a few ms to
    // tens of ms later, so the abort looks that much early. A timer that fires at once is still caught.
    for (const call of f.calls) {
      const after = call.abortedAt === undefined ? undefined : Math.round(call.abortedAt - call.startedAt);
      expect(after, `ms until attempt ${call.n}'s signal aborted (attemptTimeoutMs 60)`).toBeGreaterThanOrEqual(30);
      expect(after, `ms until attempt ${call.n}'s signal aborted (attemptTimeoutMs 60)`).toBeLessThanOrEqual(1000);
    }
  });

  test.concurrent('R10 shortens the attempt timeout to the deadline, in whole milliseconds', async () => {
    const { f, opts } = setup(['hang'], () => 0.5);
    const p = fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 80.7, attemptTimeoutMs: 5000, maxAttempts: 1 });
    const outcome = await settleWithin(p, 400);
    expect(f.calls.length, `fetch calls (outcome: ${outcome.kind === 'rejected' ? String(outcome.error) : outcome.kind})`).toBe(1);
    const call = f.calls[0]!;
    const after = call.abortedAt === undefined ? undefined : Math.round(call.abortedAt - call.startedAt);
    expect(call.abortedAt, 'when the signal aborted with 80.7 ms left and attemptTimeoutMs 5000 (waited 400 ms)').toBeDefined();
    // As in the test above: from the fetch call, which may come some ms after the timer started.
    expect(after, 'ms until the signal aborted with 80.7 ms left and attemptTimeoutMs 5000').toBeGreaterThanOrEqual(40);
    expect(after, 'ms until the signal aborted with 80.7 ms left and attemptTimeoutMs 5000').toBeLessThanOrEqual(400);
  });

  test.concurrent('R10 measures the time left again before each attempt', async () => {
    // The wait moves now() from 0 to 4000: the second attempt has 80 ms left before the deadline.
    const { f, s, opts } = setup([503, 'hang'], () => 0.5);
    const p = fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 4080, baseMs: 8000, capMs: 8000, attemptTimeoutMs: 5000, maxAttempts: 2 });
    const outcome = await settleWithin(p, 600);
    expect(s.waits, 'waits').toEqual([4000]);
    expect(f.calls.length, `fetch calls (outcome: ${outcome.kind === 'rejected' ? String(outcome.error) : outcome.kind})`).toBe(2);
    const call = f.calls[1]!;
    const after = call.abortedAt === undefined ? undefined : Math.round(call.abortedAt - call.startedAt);
    const what = 'the second attempt, started at now() 4000 with deadlineAt 4080 and attemptTimeoutMs 5000';
    expect(call.abortedAt, `when the signal of ${what} aborted (waited 600 ms)`).toBeDefined();
    expect(after, `ms until the signal of ${what} aborted`).toBeGreaterThanOrEqual(40);
    expect(after, `ms until the signal of ${what} aborted`).toBeLessThanOrEqual(600);
  });

  test.concurrent("R10 aborts the attempt's signal when the caller's signal aborts", async () => {
    const { f, opts } = setup(['hang'], () => 0.5);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    // Waited for, not timed: on a busy machine (or across strict grading's two processes) the first
    // call and the abort's arrival can take longer than a few ms; a helper that never forwards the
    // abort still fails here, PROMPT_MS later.
    await until(() => f.calls.length > 0, 'the first fetch call', PROMPT_MS);
    expect(f.calls.length, 'fetch calls before the abort').toBe(1);
    const call = f.calls[0]!;
    expect(call.signal.aborted, 'attempt signal aborted before the caller aborted').toBe(false);
    ac.abort();
    await until(() => call.signal.aborted, `the attempt's signal to abort after the caller's signal aborted`, PROMPT_MS);
    await settleWithin(p, 500);
  });

  test('R11 rejects with deadline-exceeded without calling fetch when the deadline has passed', async () => {
    for (const deadlineAt of [-5, 0]) {
      const { f, opts } = setup([200]);
      const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, deadlineAt }), RetryError, `deadlineAt ${deadlineAt} at now() 0`);
      expect(f.calls.length, `fetch calls with deadlineAt ${deadlineAt} and now() 0`).toBe(0);
      expect(err.reason, 'reason').toBe('deadline-exceeded');
    }
  });

  test('R11 checks the deadline again after a wait that overran', async () => {
    const c = clock(0);
    const f = scriptedFetch([503, 200]);
    const s = recordingSleep(c, 1000); // this timer fires a second late
    const err = await rejection(
      fetchWithRetry(URL_, undefined, { deadlineAt: 500, now: c.now, random: () => 0.5, sleep: s.sleep, fetch: f.fetch }),
      RetryError,
      'a sleep that overran the deadline',
    );
    expect(f.calls.length, 'fetch calls after the deadline passed during the wait').toBe(1);
    expect(err.reason, 'reason').toBe('deadline-exceeded');
    expect(err.attempts, 'attempts').toBe(1);
  });

  // Known before any attempt, so a helper that checks it outside its async code throws it out of
  // the call itself; a test that only awaits the call cannot tell that from a rejection.
  test('R11 a deadline already passed is a rejected promise, never a synchronous throw', async () => {
    for (const deadlineAt of [-5, 0]) {
      const { f, opts } = setup([200]);
      const what = `deadlineAt ${deadlineAt} at now() 0, calling fetchWithRetry without awaiting it`;
      const err = await rejection(
        started(() => fetchWithRetry(URL_, undefined, { ...opts, deadlineAt }), what),
        RetryError,
        what,
      );
      expect(err.reason, `reason (${what})`).toBe('deadline-exceeded');
      expect(f.calls.length, `fetch calls (${what})`).toBe(0);
    }
  });

  test.concurrent('R14 rejects with aborted and no fetch when the signal is already aborted', async () => {
    const { f, opts } = setup([200]);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, signal: AbortSignal.abort() }), RetryError, 'an already aborted signal');
    expect(f.calls.length, 'fetch calls').toBe(0);
    expect(err.reason, 'reason').toBe('aborted');
  });

  test.concurrent('R14 an already aborted signal is a rejected promise, never a synchronous throw', async () => {
    const cases: Array<[string, RequestInit | undefined, object]> = [
      ['AbortSignal.abort()', undefined, { signal: AbortSignal.abort() }],
      ["AbortSignal.abort(new Error('the user closed the page'))", undefined, { signal: AbortSignal.abort(new Error('the user closed the page')) }],
      [
        'an aborted signal on a POST with a budget',
        { method: 'POST', body: 'x' },
        { signal: AbortSignal.abort(), budget: { deposit() {}, trySpend: () => true } },
      ],
      ['an aborted signal and a deadline already passed', undefined, { signal: AbortSignal.abort(), deadlineAt: 0 }],
    ];
    for (const [label, init, extra] of cases) {
      const { f, opts } = setup([200]);
      const what = `${label}, calling fetchWithRetry without awaiting it`;
      const err = await rejection(
        started(() => fetchWithRetry(URL_, init, { ...opts, ...extra }), what),
        RetryError,
        what,
      );
      expect(err.reason, `reason (${what})`).toBe('aborted');
      expect(f.calls.length, `fetch calls (${what})`).toBe(0);
    }
  });

  test.concurrent('R14 rejects promptly with aborted when the caller aborts during an attempt', async () => {
    const { f, opts } = setup(['hang', 200]);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    // Waited for, not timed: an abort before the first call would test the check at the top instead.
    await until(() => f.calls.length === 1, 'the first attempt to start', PROMPT_MS);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted during an attempt`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during an attempt');
    expect(err.reason, 'reason').toBe('aborted');
    await delay(30);
    expect(f.calls.length, 'fetch calls after the abort').toBe(1);
  });

  // An abort during an attempt must win over every check that follows a failed attempt (R4, R6,
  // R9, R12): a helper that treats it like the attempt's own timeout reaches the wait, where the
  // aborted signal rescues the simple case above, but reports the wrong reason in these ones.
  test.concurrent('R14 an abort during a POST attempt ends as aborted, not not-idempotent', async () => {
    const { f, s, opts } = setup(['hang']);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, { method: 'POST', body: '{}' }, { ...opts, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    await until(() => f.calls.length === 1, 'the POST attempt to start', PROMPT_MS);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted a POST attempt`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during a POST attempt');
    expect(err.reason, 'reason').toBe('aborted');
    expect(err.attempts, 'attempts').toBe(1);
    expect(s.waits, 'waits').toEqual([]);
  });

  test.concurrent('R14 an abort during the last allowed attempt ends as aborted, not gave-up', async () => {
    const { f, opts } = setup([503, 'hang']);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 2, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    await until(() => f.calls.length === 2, 'the second and last attempt to start', PROMPT_MS);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted the last attempt`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during the last allowed attempt');
    expect(err.reason, 'reason').toBe('aborted');
    expect(err.attempts, 'attempts').toBe(2);
  });

  test.concurrent('R14 an abort during an attempt near the deadline ends as aborted, not no-time-left', async () => {
    // The next wait (50 s) would pass the deadline (1 s away on the injected clock).
    const { f, s, opts } = setup(['hang']);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 1000, baseMs: 100_000, capMs: 100_000, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    await until(() => f.calls.length === 1, 'the attempt to start', PROMPT_MS);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted an attempt near the deadline`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during an attempt near the deadline');
    expect(err.reason, 'reason').toBe('aborted');
    expect(s.waits, 'waits').toEqual([]);
  });

  test.concurrent('R14 an abort during an attempt spends no budget token', async () => {
    const { f, opts } = setup(['hang']);
    const spends: string[] = [];
    const budget = { deposit: () => {}, trySpend: () => (spends.push('trySpend'), true) };
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, budget, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    await until(() => f.calls.length === 1, 'the attempt to start', PROMPT_MS);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted with a budget`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during an attempt, with a budget');
    expect(err.reason, 'reason').toBe('aborted');
    expect(spends, 'calls to budget.trySpend() after the caller aborted').toEqual([]);
  });

  test.concurrent('R14 an abort with a reason that is not a DOMException still ends as aborted', async () => {
    const { f, opts } = setup(['hang', 200]);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { ...opts, signal: ac.signal, attemptTimeoutMs: 5000 });
    p.catch(() => {});
    await until(() => f.calls.length === 1, 'the attempt to start', PROMPT_MS);
    ac.abort(new Error('the user closed the page'));
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after ac.abort(new Error(...)) during an attempt`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort with an Error as its reason');
    expect(err.reason, 'reason').toBe('aborted');
    await delay(30);
    expect(f.calls.length, 'fetch calls after the abort').toBe(1);
  });

  test.concurrent('R14 rejects promptly with aborted when the caller aborts during the wait', async () => {
    const c = clock(0);
    const f = scriptedFetch([503, 200]);
    const s = pendingSleep();
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, { deadlineAt: 1e6, now: c.now, random: () => 0.5, sleep: s.sleep, fetch: f.fetch, signal: ac.signal });
    p.catch(() => {});
    const started = await settleWithin(s.started, PROMPT_MS);
    expect(started.kind, 'sleep was called after a 503').toBe('resolved');
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after the caller aborted during the wait`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during the wait');
    expect(err.reason, 'reason').toBe('aborted');
    expect(f.calls.length, 'fetch calls after the abort').toBe(1);
    expect(err.attempts, 'attempts').toBe(1);
  });

  test.concurrent('R14 the default sleep is cancelled by the signal', async () => {
    const c = clock(0);
    const f = scriptedFetch([503, 200]);
    const ac = new AbortController();
    const p = fetchWithRetry(URL_, undefined, {
      deadlineAt: 1e6,
      now: c.now,
      random: () => 0.9,
      baseMs: 10_000,
      capMs: 10_000,
      fetch: f.fetch,
      signal: ac.signal,
    });
    p.catch(() => {});
    // The 503 starts the 9 s sleep at once, so 30 ms after the first call the helper is sleeping (on a
    // very busy machine it may not be yet: a correct helper then stops at its check before the sleep).
    await until(() => f.calls.length === 1, 'the first attempt', PROMPT_MS);
    await delay(30);
    ac.abort();
    const outcome = await settleWithin(p, PROMPT_MS);
    expect(outcome.kind, `outcome ${PROMPT_MS} ms after aborting a 9 s default sleep`).toBe('rejected');
    const err = await rejection(p, RetryError, 'abort during the default sleep');
    expect(err.reason, 'reason').toBe('aborted');
    expect(f.calls.length, 'fetch calls').toBe(1);
  });

  test('R16 reads time, randomness, waits and requests only through the injected functions', async () => {
    const c = clock(0);
    const f = scriptedFetch([502, new TypeError('x'), 'hang', 200]);
    const s = recordingSleep(c);
    let randoms = 0;
    const learner = new URL('../src/', import.meta.url).pathname;
    const watched = [
      ['Date.now', watchGlobal(Date, 'now', learner)],
      ['performance.now', watchGlobal(performance, 'now', learner)],
      ['Math.random', watchGlobal(Math, 'random', learner)],
      ['globalThis.fetch', watchGlobal(globalThis, 'fetch', learner)],
    ] as const;
    const t0 = performance.now();
    let res: unknown;
    try {
      res = await fetchWithRetry(URL_, undefined, {
        deadlineAt: 1e9,
        now: c.now,
        random: () => (randoms++, 0.9),
        sleep: s.sleep,
        fetch: f.fetch,
        maxAttempts: 4,
        baseMs: 60_000,
        capMs: 60_000,
        attemptTimeoutMs: 40,
      }).catch((e: unknown) => e);
    } finally {
      for (const [, w] of watched) w.restore();
    }
    expect(res instanceof Response ? res.status : String(res), 'outcome').toBe(200);
    for (const [name, w] of watched) expect(w.count, `calls to ${name} from your file`).toBe(0);
    expect(randoms, 'calls to the injected random()').toBe(3);
    expect(s.waits.length, 'calls to the injected sleep()').toBe(3);
    expect(performance.now() - t0, 'real ms spent although the injected sleep returns at once').toBeLessThan(1500);
  });
});
