// expect-fail: R14
// Bug: an abort by the caller during an attempt is handled like the attempt's timeout, so a POST,
// the last attempt or a close deadline reports another reason, and a budget token is spent.
export type RetryReason =
  | 'not-retryable'
  | 'not-idempotent'
  | 'gave-up'
  | 'no-time-left'
  | 'budget-exhausted'
  | 'deadline-exceeded'
  | 'aborted';

export class RetryError extends Error {
  readonly reason: RetryReason;
  readonly attempts: number;
  readonly status?: number;

  constructor(reason: RetryReason, attempts: number, opts?: { status?: number; cause?: unknown }) {
    super(`retry stopped (${reason}) after ${attempts} attempt(s)`, { cause: opts?.cause });
    this.name = 'RetryError';
    this.reason = reason;
    this.attempts = attempts;
    if (opts?.status !== undefined) this.status = opts.status;
  }
}

export interface RetryBudget {
  deposit(): void;
  trySpend(): boolean;
}

export function tokenBucketBudget(opts: { ratio?: number; maxTokens?: number } = {}): RetryBudget {
  const ratio = opts.ratio ?? 0.1;
  const maxTokens = opts.maxTokens ?? 10;
  // Whole micro-tokens: ten deposits of 0.1 add up to exactly one token.
  const SCALE = 1_000_000;
  const step = Math.round(ratio * SCALE);
  const max = Math.round(maxTokens * SCALE);
  let micro = max;
  return {
    deposit() {
      micro = Math.min(max, micro + step);
    },
    trySpend() {
      if (micro < SCALE) return false;
      micro -= SCALE;
      return true;
    },
  };
}

export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: () => number): number {
  return random() * Math.min(capMs, baseMs * 2 ** (failures - 1));
}

export interface RetryOptions {
  deadlineAt: number;
  idempotent?: boolean;
  idempotencyKey?: string;
  maxAttempts?: number;
  baseMs?: number;
  capMs?: number;
  attemptTimeoutMs?: number;
  budget?: RetryBudget;
  signal?: AbortSignal;
  fetch?: typeof globalThis.fetch;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

const RETRYABLE_STATUS = new Set([408, 429, 502, 503, 504]);
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Milliseconds asked by Retry-After (delay-seconds or HTTP-date), or undefined. */
function retryAfterMs(res: Response): number | undefined {
  if (res.status !== 429 && res.status !== 503) return undefined;
  const value = res.headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

type Failure = { status?: number; cause?: unknown; retryAfter?: number };

export async function fetchWithRetry(
  url: string | URL,
  init: RequestInit | undefined,
  opts: RetryOptions,
): Promise<Response> {
  const {
    deadlineAt,
    idempotencyKey,
    maxAttempts = 3,
    baseMs = 100,
    capMs = 2000,
    attemptTimeoutMs = 1000,
    budget,
    signal,
  } = opts;
  const doFetch = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? (() => performance.now());
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? defaultSleep;
  const method = (init?.method ?? 'GET').toUpperCase();
  const mayRetry = idempotencyKey !== undefined || (opts.idempotent ?? IDEMPOTENT_METHODS.has(method));

  const headers = new Headers(init?.headers);
  if (idempotencyKey !== undefined) headers.set('Idempotency-Key', idempotencyKey);

  budget?.deposit();
  let attempts = 0;

  for (;;) {
    if (signal?.aborted) throw new RetryError('aborted', attempts, { cause: signal.reason });
    const left = deadlineAt - now();
    if (left <= 0) throw new RetryError('deadline-exceeded', attempts);

    const timeout = AbortSignal.timeout(Math.floor(Math.min(attemptTimeoutMs, left)));
    const attemptSignal = signal ? AbortSignal.any([signal, timeout]) : timeout;
    attempts++;

    let failure: Failure;
    try {
      const res = await doFetch(url, { ...init, headers, signal: attemptSignal });
      if (res.status >= 200 && res.status < 300) return res;
      if (!RETRYABLE_STATUS.has(res.status)) throw new RetryError('not-retryable', attempts, { status: res.status });
      failure = { status: res.status, retryAfter: retryAfterMs(res) };
      await res.body?.cancel().catch(() => {});
    } catch (err) {
      if (err instanceof RetryError) throw err;
      // Bug: the caller's abort is taken for the attempt's timeout and goes on through R4, R6, R9
      // and R12. Only the signal check around sleep() below turns it into 'aborted', and only when
      // the call gets that far.
      if (!attemptSignal.aborted && !(err instanceof TypeError)) {
        throw new RetryError('not-retryable', attempts, { cause: err });
      }
      failure = { cause: err };
    }

    const { status, cause } = failure;
    if (!mayRetry) throw new RetryError('not-idempotent', attempts, { status, cause });
    if (attempts >= maxAttempts) throw new RetryError('gave-up', attempts, { status, cause });

    const jitter = fullJitterDelay(attempts, baseMs, capMs, random);
    const wait = failure.retryAfter === undefined ? jitter : failure.retryAfter + jitter;
    if (now() + wait >= deadlineAt) throw new RetryError('no-time-left', attempts, { status, cause });
    if (budget && !budget.trySpend()) throw new RetryError('budget-exhausted', attempts, { status, cause });

    try {
      await sleep(wait, signal);
    } catch (err) {
      if (signal?.aborted) throw new RetryError('aborted', attempts, { cause: signal.reason });
      throw err;
    }
  }
}
