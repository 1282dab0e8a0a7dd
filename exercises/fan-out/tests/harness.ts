// Test doubles for the hidden fan-out suite: branches that record how they were called and when
// their signal aborted, a caller's deadline with a fixed remaining(), and a way to observe how the
// call settled. Every timer a test starts is cleared after it, so broken code cannot hang the run.

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
export type Behaviour =
  | { after: number; value?: unknown; error?: Error; honours?: boolean }
  | 'hang'
  | { throws: Error };

const timers = new Set<ReturnType<typeof setTimeout>>();
const retained: unknown[] = [];
/**
 * Clears what the test left; every test file registers it with `afterEach(cleanup)` (the grader runs
 * the files in one worker without isolation, so a hook registered here would reach only the first file).
 */
export function cleanup(): void {
  for (const t of timers) clearTimeout(t);
  timers.clear();
  retained.length = 0;
}

export function later(ms: number, fn: () => void): void {
  const t = setTimeout(() => {
    timers.delete(t);
    fn();
  }, ms);
  timers.add(t);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => later(ms, resolve));

// Node 20 holds the sources of AbortSignal.any() weakly, so AbortSignal.any([x, AbortSignal.timeout(ms)])
// can be garbage collected before the timeout fires and never abort (nodejs/node#57736, fixed in
// later Node lines). That is a runtime bug, not the learner's: the tests hold the sources strongly.
function retainSources(signal: unknown): void {
  if (!(signal instanceof AbortSignal) || retained.includes(signal)) return;
  retained.push(signal);
  for (const sym of Object.getOwnPropertySymbols(signal)) {
    if (sym.description !== 'kSourceSignals') continue;
    try {
      for (const ref of Set.prototype.values.call((signal as any)[sym])) {
        const source = typeof ref?.deref === 'function' ? ref.deref() : ref;
        if (source) retainSources(source);
      }
    } catch {
      // another runtime's internals: nothing to hold
    }
  }
}

export interface TestBranch {
  name: string;
  required: boolean;
  call: (signal: AbortSignal, timeoutMs: number) => Promise<unknown>;
}

/** A branch and the probe that records what happened to it. Times are relative to `t0`. */
export function branch(name: string, required: boolean, behaviour: Behaviour, t0: { at: number }): { branch: TestBranch; probe: Probe } {
  const probe: Probe = { name, calls: 0, args: [] };
  const call = (...args: unknown[]) => {
    probe.calls += 1;
    probe.args = args;
    probe.calledAt = performance.now() - t0.at;
    const signal = args[0] instanceof AbortSignal ? args[0] : undefined;
    probe.signal = signal;
    probe.timeoutMs = args[1];
    retainSources(signal);
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
      later(behaviour.after, () => settle(() => (behaviour.error ? reject(behaviour.error) : resolve(behaviour.value))));
    });
  };
  return { branch: { name, required, call: call as TestBranch['call'] }, probe };
}

/** Builds branches from a table; `t0.at` is reset by `run`. */
export function branches(spec: Array<[string, boolean, Behaviour]>) {
  const t0 = { at: performance.now() };
  const made = spec.map(([name, required, behaviour]) => branch(name, required, behaviour, t0));
  const probes = Object.fromEntries(made.map((m) => [m.branch.name, m.probe])) as Record<string, Probe>;
  return { list: made.map((m) => m.branch), probes, t0 };
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
 * Starts a call and observes how it settles, with the time relative to `t0`. A synchronous
 * throw (instead of a rejected promise) is reported as such; a call still pending after
 * `guardMs` is reported as pending, so one broken rule does not cost a whole test timeout. The
 * default leaves a correct fanOut five times what the tests that use it need (up to 100 ms);
 * a test whose call takes longer passes its own.
 */
export function observe(t0: { at: number }, start: () => Promise<unknown>, guardMs = 500): Promise<Outcome> {
  t0.at = performance.now();
  let p: Promise<unknown>;
  try {
    p = start();
  } catch (e) {
    return Promise.resolve({ at: 0, ok: false, error: new Error(`fanOut threw synchronously (${String(e)}); it must return a rejected promise`) });
  }
  return new Promise<Outcome>((resolve) => {
    Promise.resolve(p).then(
      (value) => resolve({ at: performance.now() - t0.at, ok: true, value }),
      (error) => resolve({ at: performance.now() - t0.at, ok: false, error }),
    );
    later(guardMs, () => resolve({ at: guardMs, ok: 'pending' }));
  });
}

/** Resolves true when the signal has aborted within `ms` (false after that, or without a signal). */
export function abortsWithin(signal: AbortSignal | undefined, ms: number): Promise<boolean> {
  if (!signal) return Promise.resolve(false);
  if (signal.aborted) return Promise.resolve(true);
  return new Promise((resolve) => {
    signal.addEventListener('abort', () => resolve(true), { once: true });
    later(ms, () => resolve(signal.aborted));
  });
}

export const ms = (n: number | undefined) => (n === undefined ? 'never' : `${Math.round(n)} ms`);

export function describeOutcome(o: Outcome): string {
  if (o.ok === 'pending') return `it was still pending after ${ms(o.at)}`;
  if (o.ok) return `it resolved after ${ms(o.at)} with ${JSON.stringify(o.value)}`;
  const e = o.error;
  const fields = e && typeof e === 'object' ? ` (reason ${JSON.stringify(e.reason)}, branch ${JSON.stringify(e.branch)})` : '';
  return `it rejected after ${ms(o.at)} with ${e?.name ?? typeof e}: ${e?.message ?? String(e)}${fields}`;
}
