// Retry helper: make every rule R1–R16 of the brief hold.
// Retry helper: hãy làm cho mọi rule R1–R16 trong đề bài đều đạt.

export type RetryReason =
  | 'not-retryable' // a status or error that another attempt would meet again
  | 'not-idempotent' // transient failure, but repeating the side effect is unsafe
  | 'gave-up' // maxAttempts attempts were sent
  | 'no-time-left' // the wait before the next attempt would reach the deadline
  | 'budget-exhausted' // the shared retry budget has no token for this retry
  | 'deadline-exceeded' // the deadline had passed before an attempt could start
  | 'aborted'; // the caller's signal aborted

export class RetryError extends Error {
  readonly reason: RetryReason;
  readonly attempts: number; // attempts actually sent (fetch calls made)
  readonly status?: number; // HTTP status of the last attempt, when it had one

  constructor(reason: RetryReason, attempts: number, opts?: { status?: number; cause?: unknown }) {
    super(`retry stopped (${reason}) after ${attempts} attempt(s)`, { cause: opts?.cause });
    this.name = 'RetryError';
    this.reason = reason;
    this.attempts = attempts;
    if (opts?.status !== undefined) this.status = opts.status;
  }
}

export interface RetryBudget {
  deposit(): void; // once per fetchWithRetry call
  trySpend(): boolean; // once per retry that will really be sent; false = no retry
}

/** Token bucket: starts full; deposit adds `ratio` (default 0.1), capped at
 *  `maxTokens` (default 10); trySpend takes 1 whole token or returns false. */
export function tokenBucketBudget(opts: { ratio?: number; maxTokens?: number } = {}): RetryBudget {
  // TODO R13
  return {
    deposit() {},
    trySpend() {
      return true;
    },
  };
}

/** Full jitter: random() * min(capMs, baseMs * 2 ** (failures - 1)), failures >= 1. */
export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: () => number): number {
  // TODO R7
  return baseMs;
}

export interface RetryOptions {
  deadlineAt: number; // absolute time on the now() clock
  idempotent?: boolean; // default: true for GET, HEAD, OPTIONS, PUT, DELETE
  idempotencyKey?: string; // makes any method safe to retry
  maxAttempts?: number; // total attempts including the first; default 3
  baseMs?: number; // default 100
  capMs?: number; // default 2000
  attemptTimeoutMs?: number; // default 1000
  budget?: RetryBudget;
  signal?: AbortSignal; // the caller's cancellation
  fetch?: typeof globalThis.fetch; // default globalThis.fetch
  now?: () => number; // default performance.now
  random?: () => number; // default Math.random
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>; // default: a timer that the signal cancels
}

export async function fetchWithRetry(url: string | URL, init: RequestInit | undefined, opts: RetryOptions): Promise<Response> {
  const doFetch = opts.fetch ?? globalThis.fetch;
  // TODO R1–R16: this sends one attempt and never retries.
  return doFetch(url, init);
}
