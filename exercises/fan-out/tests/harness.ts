// Test doubles for the hidden fan-out suite: branches that record how they were called and when
// their signal aborted, a caller's deadline with a fixed remaining(), and a way to observe how the
// call settled. Every timer a test starts is cleared when it ends, so broken code cannot hang the run.
// A rule's tests run side by side (test.concurrent), each with its own scope (the `h` fixture); F10,
// which counts the whole process's timers, stays on its own.
import { scopedTest, TestScope } from '../test-support/scope.ts';

export interface Probe {
  name: string;
  calls: number;
  args: unknown[];
  signal?: AbortSignal;
  timeoutMs?: unknown;
  calledAt?: number;
  settledAt?: number;
  abortedAt?: number;
}

/**
 * What a branch does once called:
 * - `{ after, value }` resolves after `after` ms, or `{ after, error }` rejects then;
 *   with `honours: true` it rejects with the signal's reason as soon as the signal aborts
 *   (like a real fetch); without it, it ignores the signal (a stubborn dependency).
 * - `'hang'` settles only when its signal aborts (then rejects with the reason).
 * - `{ throws }` throws synchronously instead of returning a promise.
 */
export type Behaviour = { after: number; value?: unknown; error?: Error; honours?: boolean } | 'hang' | { throws: Error };

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What one test opened, released when it finishes: the timers of its branches and of its own
 * waits, and the signals it holds. A rule's tests run side by side (test.concurrent), so each test
 * gets its own scope (the `h` fixture below) instead of one cleanup list shared by the file.
 */
export class Scope extends TestScope {
  /** Builds branches from a table; `t0.at` is reset by `observe`. */
  branches(spec: Array<[string, boolean, Behaviour]>) {
    return branches(this, spec);
  }

  /** See observe() below. */
  observe(t0: { at: number }, start: () => Promise<unknown>, guardMs = GUARD_MS): Promise<Outcome> {
    return observe(this, t0, start, guardMs);
  }

  /** Resolves true when the signal has aborted within `ms` (false after that, or without a signal). */
  abortsWithin(signal: AbortSignal | undefined, ms: number): Promise<boolean> {
    if (!signal) return Promise.resolve(false);
    if (signal.aborted) return Promise.resolve(true);
    return new Promise((resolve) => {
      signal.addEventListener('abort', () => resolve(true), { once: true });
      this.later(ms, () => resolve(signal.aborted));
    });
  }
}

/** vitest's test with an `h` fixture: a fresh Scope per test, closed when the test finishes. */
export const test = scopedTest(() => new Scope());

export interface TestBranch {
  name: string;
  required: boolean;
  call: (signal: AbortSignal, timeoutMs: number) => Promise<unknown>;
}

/** A branch and the probe that records what happened to it. Times are relative to `t0`. */
function branch(scope: Scope, name: string, required: boolean, behaviour: Behaviour, t0: { at: number }): { branch: TestBranch; probe: Probe } {
  const probe: Probe = { name, calls: 0, args: [] };
  const call = (...args: unknown[]) => {
    // A branch called after its test ended (by a call the test stopped waiting for) never settles,
    // and starts no timer that a later test could take for the learner's.
    if (scope.closed) return new Promise<unknown>(() => {});
    probe.calls += 1;
    probe.args = args;
    probe.calledAt = performance.now() - t0.at;
    const signal = args[0] instanceof AbortSignal ? args[0] : undefined;
    probe.signal = signal;
    probe.timeoutMs = args[1];
    scope.retain(signal);
    if (signal) {
      if (signal.aborted) probe.abortedAt = probe.calledAt;
      else signal.addEventListener('abort', () => (probe.abortedAt ??= performance.now() - t0.at), { once: true });
    }
    if (typeof behaviour === 'object' && 'throws' in behaviour) throw behaviour.throws;
    return new Promise<unknown>((resolve, reject) => {
      const settle = (fn: () => void) => {
        if (probe.settledAt !== undefined) return;
        probe.settledAt = performance.now() - t0.at;
        fn();
      };
      const honours = behaviour === 'hang' || behaviour.honours === true;
      if (honours && signal) {
        const stop = () => settle(() => reject(signal.reason ?? new Error('aborted')));
        if (signal.aborted) stop();
        else signal.addEventListener('abort', stop, { once: true });
      }
      if (behaviour === 'hang') return;
      // after: 0 answers at once (a cache hit), before any timer of the helper can fire
      if (behaviour.after <= 0) return settle(() => (behaviour.error ? reject(behaviour.error) : resolve(behaviour.value)));
      scope.later(behaviour.after, () => settle(() => (behaviour.error ? reject(behaviour.error) : resolve(behaviour.value))));
    });
  };
  return { branch: { name, required, call: call as TestBranch['call'] }, probe };
}

function branches(scope: Scope, spec: Array<[string, boolean, Behaviour]>) {
  const t0 = { at: performance.now() };
  const made = spec.map(([name, required, behaviour]) => branch(scope, name, required, behaviour, t0));
  const probes = Object.fromEntries(made.map((m) => [m.branch.name, m.probe])) as Record<string, Probe>;
  return { list: made.map((m) => m.branch), probes, t0 };
}

/**
 * A caller's deadline whose remaining() is `first` on the first read and `step` ms less on every
 * read after it, as a real clock moves on: F2's budget is read once, so no branch sees a later read.
 */
export function movingDeadline(first: number, step: number) {
  const controller = new AbortController();
  const reads: number[] = [];
  const ctx = {
    signal: controller.signal,
    remaining: () => {
      const value = Math.max(0, first - step * reads.length);
      reads.push(value);
      return value;
    },
  };
  return { ctx, reads };
}

/** The caller's deadline: a fixed remaining() and a signal the test can abort. */
export function deadline(remaining: number) {
  const controller = new AbortController();
  let reads = 0;
  const ctx = {
    signal: controller.signal,
    remaining: () => {
      reads += 1;
      return remaining;
    },
  };
  return { ctx, controller, reads: () => reads };
}

export type Outcome = { at: number } & ({ ok: true; value: any } | { ok: false; error: any } | { ok: 'pending' });

/**
 * How long observe() waits for a call by default: a correct fanOut settles the calls these tests
 * observe within 60 ms (a test whose call takes longer passes its own guard, five times what it
 * needs), so a call that never settles fails its test after GUARD_MS instead of the per-test timeout.
 */
export const GUARD_MS = 300;

/**
 * Resolves after `ms` of real time and `ms / 5` turns of a 2 ms timer, whichever is later: a loaded
 * machine that stalls this process (and the learner's timers with it) stretches the wait instead of
 * using it up. It ends early once `stopped()` or the scope has closed.
 */
function guard(scope: Scope, ms: number, stopped: () => boolean): Promise<void> {
  const start = performance.now();
  return (async () => {
    for (let turns = 0; !stopped() && !scope.closed && (performance.now() - start < ms || turns < ms / 5); turns++) await delay(2);
  })();
}

/**
 * Starts a call and observes how it settles, with the time relative to `t0`. A synchronous
 * throw (instead of a rejected promise) is reported as such; a call still pending after the guard
 * (`guardMs`, stretched by a stalled process) is reported as pending, so one broken rule does not
 * cost a whole test timeout.
 */
function observe(scope: Scope, t0: { at: number }, start: () => Promise<unknown>, guardMs: number): Promise<Outcome> {
  t0.at = performance.now();
  let p: Promise<unknown>;
  try {
    p = start();
  } catch (e) {
    return Promise.resolve({ at: 0, ok: false, error: new Error(`fanOut threw synchronously (${String(e)}); it must return a rejected promise`) });
  }
  let done = false;
  return new Promise<Outcome>((resolve) => {
    Promise.resolve(p).then(
      (value) => ((done = true), resolve({ at: performance.now() - t0.at, ok: true, value })),
      (error) => ((done = true), resolve({ at: performance.now() - t0.at, ok: false, error })),
    );
    void guard(scope, guardMs, () => done).then(() => resolve({ at: performance.now() - t0.at, ok: 'pending' }));
  });
}

type FanOutFn = (ctx: any, branches: any, opts?: any) => Promise<unknown>;
export interface BudgetCut {
  o: Outcome;
  recs: Probe;
}
const budgetCutRuns = new Map<number | undefined, Promise<BudgetCut>>();
/**
 * F7 without optionalCutoffMs, or with one past the budget (`cutoffMs`): an optional branch that
 * hangs is cut when the 60 ms budget runs out. Its call is awaited 1.5 s, as it always has been: a
 * helper that gives every branch a fixed 1 s timeout passes that test (its rule is F2) only once that
 * 1 s has run out, and must go on passing it. So each call starts once, with the first test file (its
 * beforeAll), and runs beside the other rules' tests (whose timers are their own scopes'); F7's tests
 * await the same calls, and start them if nothing has. Their timers are cleared as soon as a call has
 * settled or its guard has run out, well before F10 (the last file) counts the process's timers.
 */
export function budgetCut(fanOut: FanOutFn, cutoffMs?: number): Promise<BudgetCut> {
  const running = budgetCutRuns.get(cutoffMs);
  if (running) return running;
  const scope = new Scope();
  const { ctx } = deadline(80); // left = 60 ms
  const b = scope.branches([
    ['price', true, { after: 10, value: 1 }],
    ['recs', false, 'hang'],
  ]);
  const run = scope
    .observe(b.t0, () => fanOut(ctx, b.list, cutoffMs === undefined ? undefined : { optionalCutoffMs: cutoffMs }), 1500)
    .then((o) => {
      scope.close();
      return { o, recs: b.probes['recs']! };
    });
  budgetCutRuns.set(cutoffMs, run);
  return run;
}

/** The optionalCutoffMs past the 60 ms budget that F7's second budget test gives. */
export const CUTOFF_PAST_BUDGET_MS = 5000;

export const ms = (n: number | undefined) => (n === undefined ? 'never' : `${Math.round(n)} ms`);

export function describeOutcome(o: Outcome): string {
  if (o.ok === 'pending') return `it was still pending after ${ms(o.at)}`;
  if (o.ok) return `it resolved after ${ms(o.at)} with ${JSON.stringify(o.value)}`;
  const e = o.error;
  const fields = e && typeof e === 'object' ? ` (reason ${JSON.stringify(e.reason)}, branch ${JSON.stringify(e.branch)})` : '';
  return `it rejected after ${ms(o.at)} with ${e?.name ?? typeof e}: ${e?.message ?? String(e)}${fields}`;
}
