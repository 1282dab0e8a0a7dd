// Test doubles for the hidden hedged-fetch suite: a scripted request function that records when
// each attempt started and when its signal aborted, a spy budget, a clock the test moves by hand,
// and checks for timers and unhandled rejections left behind. Durations are real but short.
// A rule's tests run side by side (test.concurrent), so each test gets its own scope (the `h`
// fixture): the timers of its scripted attempts and the signals it holds are released when that
// test finishes, however it ended, without touching the tests still running.
import { expect } from 'vitest';
import { startedPromise } from '../test-support/expect.ts';
import { scopedTest, TestScope } from '../test-support/scope.ts';
import { watchTimers } from '../test-support/timers.ts';

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * How long a test waits for a call that never settles, so that it fails at once instead of waiting
 * out the 3 s per-test timeout. Most tests wait `quiet(ms)`: until the scenario has been quiet (no
 * attempt started, answered, failed or aborted, in any test) for `ms`, which each test sets to five
 * times the longest pause a correct hedgedFetch makes in it (a hedge delay, a slow answer), at
 * least 150 ms. A number is a plain limit, SETTLE_MS when the test asserts none of its own. Either
 * way settleWithin() also waits for as many turns of a 2 ms timer as a quiet machine would take, so
 * a loaded machine that stalls this process (and the learner's timers with it) stretches the wait.
 */
export const SETTLE_MS = 300;
export type Wait = number | { quietMs: number };
export const quiet = (quietMs: number): Wait => ({ quietMs });
const waitText = (w: Wait) => (typeof w === 'number' ? `within ${w} ms` : `before ${w.quietMs} ms passed with nothing happening`);
/** Attempts started, answered, failed or aborted: what quiet() waits on. */
let events = 0;

/** What one attempt does, by attempt number (1 = the first, 2 = the hedge). */
export type Step =
  | { after: number; value: string } // resolves after `after` ms (rejects at once if aborted first)
  | { after: number; error: Error } // rejects with `error` after `after` ms
  | 'hang' // settles only when its signal aborts (rejects with the signal's reason)
  | 'deaf' // never settles, even when its signal aborts: a request that ignores cancellation
  | { throws: Error }; // throws `throws` synchronously instead of returning a promise

export interface AttemptRecord {
  attempt: unknown;
  signal: AbortSignal;
  startedAt: number; // ms since the scenario started
  abortedAt?: number;
}

/** What one test opened, released when it finishes. */
export class Scope extends TestScope {
  /** A request function that plays `steps` by attempt number and records every call. */
  scripted(steps: Record<number, Step>, log?: string[]) {
    return scripted(this, steps, log);
  }

  /** See learnerTimers() below; stops watching when the test finishes. */
  watchTimers(): { left(): number } {
    return learnerTimers(this);
  }
}

/** vitest's test with an `h` fixture: a fresh Scope per test, closed when the test finishes. */
export const test = scopedTest(() => new Scope());

function scripted(scope: Scope, steps: Record<number, Step>, log?: string[]) {
  const t0 = performance.now();
  const calls: AttemptRecord[] = [];
  const request = (signal: AbortSignal, attempt: number): Promise<string> => {
    const call: AttemptRecord = { attempt, signal, startedAt: performance.now() - t0 };
    calls.push(call);
    log?.push(`attempt ${String(attempt)}`);
    // An attempt sent after its test ended (a call the test stopped waiting for) never settles,
    // and starts no timer that a later test could take for the learner's.
    if (scope.closed) return new Promise<string>(() => {});
    events++;
    scope.retain(signal);
    const step = steps[calls.length] ?? 'hang';
    if (typeof step === 'object' && 'throws' in step) throw step.throws;
    return new Promise<string>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        events++;
        call.abortedAt = performance.now() - t0;
        clearTimeout(timer); // the test's own timers must not look like the learner's
        if (step !== 'deaf') reject(signal.reason);
      };
      if (!(signal instanceof AbortSignal)) return reject(new TypeError('request() was not given an AbortSignal'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      if (step === 'hang' || step === 'deaf') return;
      timer = setTimeout(() => {
        events++;
        signal.removeEventListener('abort', onAbort);
        if ('value' in step) resolve(step.value);
        else reject(step.error);
      }, step.after);
      scope.defer(() => clearTimeout(timer));
    });
  };
  return { request, calls, elapsed: () => performance.now() - t0 };
}

/** A budget that records how it is used and answers tryHedge() from `answers` (default yes). */
export function spyBudget(answers: boolean[] = [], log: string[] = []) {
  let asked = 0;
  return {
    log,
    budget: {
      recordRequest: () => void log.push('recordRequest'),
      tryHedge: () => {
        log.push('tryHedge');
        return answers[asked++] ?? true;
      },
    },
    count: (what: string) => log.filter((x) => x === what).length,
  };
}

/** A clock that stands still until the test moves it. */
export function manualClock(t = 0) {
  const clock = { t, now: () => clock.t };
  return clock;
}

export type Outcome = { kind: 'resolved'; value: unknown; at: number } | { kind: 'rejected'; error: unknown; at: number } | { kind: 'pending' };

/**
 * How `p` settled (and when, in ms since `since`), or 'pending' if it had not when the wait ran
 * out (see SETTLE_MS and quiet()).
 */
export async function settleWithin(p: Promise<unknown>, wait: Wait, since = performance.now()): Promise<Outcome> {
  let done = false;
  const limit = typeof wait === 'number' ? wait : wait.quietMs;
  const guard = async (): Promise<Outcome> => {
    let start = performance.now();
    let seen = events;
    for (let turns = 0; !done && (performance.now() - start < limit || turns < limit / 5); turns++) {
      await delay(2);
      if (typeof wait !== 'number' && events !== seen) {
        seen = events;
        start = performance.now();
        turns = 0;
      }
    }
    return { kind: 'pending' };
  };
  const outcome = await Promise.race([
    p.then(
      (value): Outcome => ({ kind: 'resolved', value, at: performance.now() - since }),
      (error: unknown): Outcome => ({ kind: 'rejected', error, at: performance.now() - since }),
    ),
    guard(),
  ]);
  done = true;
  return outcome;
}

export function show(o: Outcome | unknown): string {
  const v = (x: unknown) =>
    x instanceof Error || (typeof x === 'object' && x !== null && 'name' in x) ? `${(x as Error).name}: ${(x as Error).message}` : JSON.stringify(x);
  if (typeof o === 'object' && o !== null && 'kind' in o) {
    const out = o as Outcome;
    if (out.kind === 'pending') return 'was still pending';
    if (out.kind === 'resolved') return `resolved with ${v(out.value)} after ${Math.round(out.at)} ms`;
    return `rejected with ${v(out.error)} after ${Math.round(out.at)} ms`;
  }
  return v(o);
}

/** Calls `start` (one hedgedFetch call) without awaiting it; see startedPromise() in ../test-support/expect.ts. */
export const started = <T>(start: () => Promise<T>, what: string): Promise<T> => startedPromise(start, what, 'hedgedFetch', show);

/** Expects `p` to resolve within the wait and returns its value; fails with what happened instead. */
export async function resolvesWithin(p: Promise<unknown>, wait: Wait, what: string): Promise<unknown> {
  const out = await settleWithin(p, wait);
  if (out.kind !== 'resolved') expect.fail(`${what}: expected the call to resolve ${waitText(wait)}, but it ${show(out)}`);
  return out.value;
}

/** Expects `p` to reject within the wait and returns the error; fails with what happened instead. */
export async function rejectsWithin(p: Promise<unknown>, wait: Wait, what: string, since?: number): Promise<{ error: unknown; at: number }> {
  const out = await settleWithin(p, wait, since);
  if (out.kind !== 'rejected') expect.fail(`${what}: expected the call to reject ${waitText(wait)}, but it ${show(out)}`);
  return { error: out.error, at: out.at };
}

const learnerDir = new URL('../src/', import.meta.url).pathname;
/**
 * Starts watching the timers the learner's code creates (told apart by their creation stack, so timers
 * that other tests left behind cannot hide or fake a leak); `left()` counts those still holding the
 * process (unref'd ones, like AbortSignal.timeout's, do not). ../test-support/timers.ts says how.
 */
function learnerTimers(scope: Scope): { left(): number } {
  const watch = watchTimers({ madeBy: learnerDir });
  scope.defer(() => watch.stop());
  return {
    left() {
      watch.stop();
      return watch.live().length;
    },
  };
}

/** Runs `fn` and returns the unhandled rejections it caused (kept from the runner meanwhile). */
export async function unhandledDuring(fn: () => Promise<void>): Promise<unknown[]> {
  const seen: unknown[] = [];
  const saved = process.listeners('unhandledRejection');
  process.removeAllListeners('unhandledRejection');
  const onUnhandled = (reason: unknown) => void seen.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    await fn();
    await delay(20);
  } finally {
    process.off('unhandledRejection', onUnhandled);
    for (const l of saved) process.on('unhandledRejection', l);
  }
  return seen;
}
