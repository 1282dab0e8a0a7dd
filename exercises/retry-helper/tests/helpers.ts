// Test doubles for the hidden retry-helper suite. They behave like the real thing where it
// matters (fetch rejects with the signal's reason when it aborts) and record what they saw.
import { expect } from 'vitest';
import { startedPromise } from '../test-support/expect.ts';

export const URL_ = 'https://api.example.test/orders';

export interface Call {
  n: number;
  method: string;
  url: string;
  headers: Headers;
  body: Promise<string>;
  signal: AbortSignal;
  startedAt: number;
  abortedAt?: number;
}

export type Step = number | { status: number; headers?: Record<string, string> } | Error | 'hang' | ((call: Call) => Promise<Response> | Response);

const NULL_BODY = new Set([101, 204, 205, 304]);

export function response(status: number, headers?: Record<string, string>): Response {
  return new Response(NULL_BODY.has(status) ? null : `status ${status}`, { status, headers });
}

/** A fetch that plays `steps` in order (then answers 200) and records every call. */
export function scriptedFetch(steps: Step[] = []) {
  const calls: Call[] = [];
  const fetch = ((input: string | URL | Request, init?: RequestInit) => {
    // Read what was really sent, whatever form the caller used (Headers, object, pairs, Request).
    const req = new Request(input, init);
    // The signal the learner passed: a Request's own copy follows it only through a weak reference
    // (undici), so it may stop following once garbage-collected. Watch the original.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? req.signal;
    const call: Call = {
      n: calls.length + 1,
      method: req.method,
      url: req.url,
      headers: new Headers(req.headers),
      body: req.body ? req.text() : Promise.resolve(''),
      signal,
      startedAt: performance.now(),
    };
    calls.push(call);
    if (signal.aborted) call.abortedAt = call.startedAt;
    else signal.addEventListener('abort', () => (call.abortedAt = performance.now()), { once: true });
    if (signal.aborted) return Promise.reject(signal.reason);
    const step = steps[call.n - 1] ?? 200;
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      if (step === 'hang') return;
      if (step instanceof Error) return reject(step);
      if (typeof step === 'number') return resolve(response(step));
      if (typeof step === 'function') return Promise.resolve(step(call)).then(resolve, reject);
      resolve(response(step.status, step.headers));
    });
  }) as typeof globalThis.fetch;
  return { fetch, calls };
}

/** A clock on the injected now(); sleep advances it. */
export function clock(start = 0) {
  let t = start;
  return {
    now: () => t,
    set: (v: number) => (t = v),
    advance: (ms: number) => (t += ms),
  };
}

/** A sleep that records each wait, advances the clock by it (plus `overshoot`), and honours the signal. */
export function recordingSleep(c?: ReturnType<typeof clock>, overshoot = 0) {
  const waits: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    waits.push(ms);
    if (signal?.aborted) throw signal.reason;
    await Promise.resolve();
    c?.advance(ms + overshoot);
  };
  return { sleep, waits };
}

/** A sleep that never ends by itself: only an abort of the signal it was given ends it. */
export function pendingSleep() {
  const waits: number[] = [];
  let started!: () => void;
  const startedP = new Promise<void>((r) => (started = r));
  const sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((_resolve, reject) => {
      waits.push(ms);
      started();
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { sleep, waits, started: startedP };
}

export const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Waits (in real time, up to `ms`) until `ready()` holds; fails the test with `what` otherwise. */
export async function until(ready: () => boolean, what: string, ms = 500) {
  const start = performance.now();
  while (!ready()) {
    if (performance.now() - start > ms) expect.fail(`waited ${ms} ms for ${what}`);
    await delay(2);
  }
}

/** Resolves to how `p` settled, or 'pending' if it did not within `ms` real milliseconds. */
export async function settleWithin<T>(p: Promise<T>, ms: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const pending = new Promise<{ kind: 'pending' }>((r) => (timer = setTimeout(() => r({ kind: 'pending' }), ms)));
  const outcome = await Promise.race([
    p.then(
      (value) => ({ kind: 'resolved' as const, value }),
      (error: unknown) => ({ kind: 'rejected' as const, error }),
    ),
    pending,
  ]);
  clearTimeout(timer);
  return outcome;
}

/**
 * Waits for `p` to settle, and fails the test once the call has made no progress (no attempt started
 * or aborted, by `calls`) for `ms` of real time, saying what did not end: a helper that never ends a
 * call then fails its test in a few hundred milliseconds instead of waiting out the per-test
 * timeout. Each step of a correct helper (an attempt timeout, a reaction to an abort) takes a small
 * part of `ms`; its waits go through the injected sleep, which returns at once. Time counts only
 * while this process runs: the guard also waits for `ms / 5` turns of a 2 ms timer, so a loaded
 * machine that stalls the process (and the helper's own timers with it) stretches the guard
 * instead of failing a correct helper. Await `p` itself afterwards for its value or error.
 */
export async function settles(p: Promise<unknown>, ms: number, what: string, calls: Call[] = []): Promise<void> {
  let settled = false;
  p.then(
    () => (settled = true),
    () => (settled = true),
  );
  const progress = () => calls.length + calls.filter((c) => c.abortedAt !== undefined).length;
  let seen = progress();
  let since = performance.now();
  let turns = 0;
  while (!settled) {
    if (progress() !== seen) {
      seen = progress();
      since = performance.now();
      turns = 0;
    } else if (performance.now() - since > ms && turns >= ms / 5) {
      expect.fail(`${what}: the call had not settled, and nothing happened for ${ms} ms (an attempt that is never aborted, or a wait that never ends?)`);
    }
    await delay(2);
    turns++;
  }
}

export function describeValue(v: unknown): string {
  if (v instanceof Response) return `a Response with status ${v.status}`;
  if (v instanceof Error) {
    const e = v as Error & { reason?: unknown; attempts?: unknown };
    return `${e.name}: ${e.message}${e.reason !== undefined ? ` (reason ${String(e.reason)}, attempts ${String(e.attempts)})` : ''}`;
  }
  return String(v);
}

/** Calls `start` (one fetchWithRetry call) without awaiting it; see startedPromise() in ../test-support/expect.ts. */
export const started = <T>(start: () => Promise<T>, what: string): Promise<T> => startedPromise(start, what, 'fetchWithRetry', describeValue);

/** Awaits `p`, expecting a RetryError; returns it. Fails with what was observed otherwise. */
export async function rejection(
  p: Promise<unknown>,
  RetryErrorClass: abstract new (...a: never[]) => Error,
  what: string,
): Promise<Error & { reason: string; attempts: number; status?: number; cause?: unknown }> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await p };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (outcome.ok) {
    expect.fail(`${what}: expected a RetryError, but the call resolved with ${describeValue(outcome.value)}`);
  }
  const error = outcome.error;
  if (!(error instanceof RetryErrorClass)) {
    expect.fail(`${what}: expected a RetryError, but it rejected with ${describeValue(error)}`);
  }
  return error as Error & { reason: string; attempts: number; status?: number; cause?: unknown };
}

/** Counts calls to a global function that come from the learner's file (by stack), not from vitest. */
export function watchGlobal<T extends object, K extends keyof T>(obj: T, key: K, learnerPath = '/src/') {
  const original = obj[key] as unknown as (...a: unknown[]) => unknown;
  let count = 0;
  const wrapper = function (this: unknown, ...args: unknown[]) {
    const stack = new Error().stack ?? '';
    // Only the direct caller counts: fetch or Request internals called from the learner's code
    // (for instance undici reading the clock) are not the learner reading the clock.
    const caller = stack.split('\n')[2] ?? '';
    const fromLearner = caller.includes(learnerPath);
    if (fromLearner) count++;
    return original.apply(this, args);
  };
  (obj as Record<K, unknown>)[key] = wrapper;
  return {
    get count() {
      return count;
    },
    restore() {
      (obj as Record<K, unknown>)[key] = original;
    },
  };
}
