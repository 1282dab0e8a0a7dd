// Test doubles for the hidden hedged-fetch suite: a scripted request function that records when
// each attempt started and when its signal aborted, a spy budget, a clock the test moves by hand,
// and checks for timers and unhandled rejections left behind. Durations are real but short.
import { expect } from 'vitest';

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** What one attempt does, by attempt number (1 = the first, 2 = the hedge). */
export type Step =
  | { after: number; value: string } // resolves after `after` ms (rejects at once if aborted first)
  | { after: number; error: Error } // rejects with `error` after `after` ms
  | 'hang' // settles only when its signal aborts (rejects with the signal's reason)
  | 'deaf'; // never settles, even when its signal aborts: a request that ignores cancellation

export interface AttemptRecord {
  attempt: unknown;
  signal: AbortSignal;
  startedAt: number; // ms since the scenario started
  abortedAt?: number;
}

// Node 20 holds the sources of AbortSignal.any() weakly, so a combined signal can lose its
// AbortSignal.timeout() source to the garbage collector (nodejs/node#57736). That is a runtime
// bug, not the learner's: the tests hold every source strongly until the test ends.
const retained: unknown[] = [];
function retainSources(signal: unknown): void {
  if (!(signal instanceof AbortSignal) || retained.includes(signal)) return;
  retained.push(signal);
  for (const sym of Object.getOwnPropertySymbols(signal)) {
    if (sym.description !== 'kSourceSignals') continue;
    try {
      for (const ref of Set.prototype.values.call((signal as any)[sym])) {
        retainSources(typeof ref?.deref === 'function' ? ref.deref() : ref);
      }
    } catch {
      // another runtime's internals: nothing to hold
    }
  }
}

const cleanups: Array<() => void> = [];
/**
 * Clears what the test left; every test file registers it with `afterEach(cleanup)` (the grader runs
 * the files in one worker without isolation, so a hook registered here would reach only the first file).
 */
export function cleanup(): void {
  retained.length = 0;
  for (const fn of cleanups.splice(0)) fn();
}

/** A request function that plays `steps` by attempt number and records every call. */
export function scripted(steps: Record<number, Step>, log?: string[]) {
  const t0 = performance.now();
  const calls: AttemptRecord[] = [];
  const request = (signal: AbortSignal, attempt: number): Promise<string> => {
    const call: AttemptRecord = { attempt, signal, startedAt: performance.now() - t0 };
    calls.push(call);
    log?.push(`attempt ${String(attempt)}`);
    retainSources(signal);
    const step = steps[calls.length] ?? 'hang';
    return new Promise<string>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        call.abortedAt = performance.now() - t0;
        clearTimeout(timer); // the test's own timers must not look like the learner's
        if (step !== 'deaf') reject(signal.reason);
      };
      if (!(signal instanceof AbortSignal)) return reject(new TypeError('request() was not given an AbortSignal'));
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      if (step === 'hang' || step === 'deaf') return;
      timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        if ('value' in step) resolve(step.value);
        else reject(step.error);
      }, step.after);
      cleanups.push(() => clearTimeout(timer));
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

/** How `p` settled (and when, in ms since `since`), or 'pending' if not within `ms`. */
export async function settleWithin(p: Promise<unknown>, ms: number, since = performance.now()): Promise<Outcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<Outcome>((r) => (timer = setTimeout(() => r({ kind: 'pending' }), ms)));
  const outcome = await Promise.race([
    p.then(
      (value): Outcome => ({ kind: 'resolved', value, at: performance.now() - since }),
      (error: unknown): Outcome => ({ kind: 'rejected', error, at: performance.now() - since }),
    ),
    pending,
  ]);
  clearTimeout(timer);
  return outcome;
}

export function show(o: Outcome | unknown): string {
  const v = (x: unknown) => (x instanceof Error || (typeof x === 'object' && x !== null && 'name' in x) ? `${(x as Error).name}: ${(x as Error).message}` : JSON.stringify(x));
  if (typeof o === 'object' && o !== null && 'kind' in o) {
    const out = o as Outcome;
    if (out.kind === 'pending') return 'still pending';
    if (out.kind === 'resolved') return `resolved with ${v(out.value)} after ${Math.round(out.at)} ms`;
    return `rejected with ${v(out.error)} after ${Math.round(out.at)} ms`;
  }
  return v(o);
}

/** Expects `p` to resolve within `ms` and returns its value; fails with what happened instead. */
export async function resolvesWithin(p: Promise<unknown>, ms: number, what: string): Promise<unknown> {
  const out = await settleWithin(p, ms);
  if (out.kind !== 'resolved') expect.fail(`${what}: expected the call to resolve within ${ms} ms, but it ${show(out)}`);
  return out.value;
}

/** Expects `p` to reject within `ms` and returns the error; fails with what happened instead. */
export async function rejectsWithin(p: Promise<unknown>, ms: number, what: string, since?: number): Promise<{ error: unknown; at: number }> {
  const out = await settleWithin(p, ms, since);
  if (out.kind !== 'rejected') expect.fail(`${what}: expected the call to reject within ${ms} ms, but it ${show(out)}`);
  return { error: out.error, at: out.at };
}

const learnerDir = new URL('../src/', import.meta.url).pathname;
// Node's async_hooks where the runtime has them (taken without an import, so that the suite also
// loads in a browser's Web Worker); elsewhere watchTimers() wraps the global setTimeout instead.
const asyncHooks = (globalThis as any).process?.getBuiltinModule?.('node:async_hooks') as typeof import('node:async_hooks') | undefined;
type TimerLike = { hasRef?: () => boolean; _destroyed?: boolean };
const holdsProcess = (t: TimerLike) => t._destroyed !== true && (typeof t.hasRef === 'function' ? t.hasRef() : true);

/**
 * Starts watching the timers the learner's code creates; `left()` counts those still holding the
 * process (unref'd ones, like AbortSignal.timeout's, do not). Timers are told apart by their creation
 * stack, so timers that other tests left behind cannot hide or fake a leak. Uses async_hooks where
 * the runtime has it (this also sees node:timers and timers/promises), else wraps the global
 * setTimeout/clearTimeout.
 */
export function watchTimers(): { left(): number } {
  const timers: TimerLike[] = [];
  const mine = () => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 40; // the learner's frame sits below the runtime's own timer frames
    const stack = new Error().stack ?? '';
    Error.stackTraceLimit = limit;
    return stack.includes(learnerDir);
  };
  let sawProbe = false;
  let hook: { disable(): unknown } | undefined;
  try {
    hook = asyncHooks?.createHook({
      init(_id, type, _trigger, resource) {
        if (type !== 'Timeout') return;
        sawProbe = true;
        if (mine()) timers.push(resource as TimerLike);
      },
    }).enable();
    clearTimeout(setTimeout(() => {}, 1)); // does this runtime report timers to the hook?
  } catch {
    hook = undefined;
  }
  if (hook && sawProbe) {
    const enabled = hook;
    cleanups.push(() => enabled.disable());
    return {
      left() {
        enabled.disable();
        return timers.filter(holdsProcess).length;
      },
    };
  }
  hook?.disable();
  const live = new Set<ReturnType<typeof setTimeout>>();
  const realSet = globalThis.setTimeout;
  const realClear = globalThis.clearTimeout;
  const wrappedSet = function (this: unknown, fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const fromLearner = mine();
    const handle: ReturnType<typeof setTimeout> = realSet(
      (...a: unknown[]) => {
        live.delete(handle);
        fn(...a);
      },
      ms,
      ...args,
    );
    if (fromLearner) live.add(handle);
    return handle;
  };
  globalThis.setTimeout = wrappedSet as unknown as typeof setTimeout;
  globalThis.clearTimeout = ((h: ReturnType<typeof setTimeout> | undefined) => {
    if (h !== undefined) live.delete(h);
    realClear(h);
  }) as typeof clearTimeout;
  const restore = () => {
    globalThis.setTimeout = realSet;
    globalThis.clearTimeout = realClear;
  };
  cleanups.push(restore);
  return {
    left() {
      restore();
      return [...live].filter((h) => holdsProcess(h as unknown as TimerLike)).length;
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
