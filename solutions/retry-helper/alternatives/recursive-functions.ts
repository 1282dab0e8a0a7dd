// A correct implementation written unlike the reference: recursion instead of a loop, a
// Headers object, Retry-After used as the exact wait, an integer deposit counter for the
// bucket, and a sleep built on node:timers/promises.
import { setTimeout as delay } from 'node:timers/promises';

export type RetryReason =
  | 'not-retryable'
  | 'not-idempotent'
  | 'gave-up'
  | 'no-time-left'
  | 'budget-exhausted'
  | 'deadline-exceeded'
  | 'aborted';

export class RetryError extends Error {
  declare readonly reason: RetryReason;
  declare readonly attempts: number;
  declare readonly status?: number;
  constructor(reason: RetryReason, attempts: number, opts: { status?: number; cause?: unknown } = {}) {
    super(`${reason} after ${attempts}`, { cause: opts.cause });
    Object.assign(this, { name: 'RetryError', reason, attempts });
    if (typeof opts.status === 'number') Object.assign(this, { status: opts.status });
  }
}

export interface RetryBudget {
  deposit(): void;
  trySpend(): boolean;
}

export function tokenBucketBudget({ ratio = 0.1, maxTokens = 10 }: { ratio?: number; maxTokens?: number } = {}): RetryBudget {
  const depositsPerToken = Math.round(1 / ratio);
  let whole = maxTokens;
  let pending = 0;
  return {
    deposit: () => {
      if (whole >= maxTokens) return;
      pending += 1;
      if (pending >= depositsPerToken) {
        pending = 0;
        whole += 1;
      }
    },
    trySpend: () => (whole >= 1 ? (whole--, true) : false),
  };
}

export const fullJitterDelay = (failures: number, baseMs: number, capMs: number, random: () => number): number =>
  random() * Math.min(capMs, baseMs * Math.pow(2, failures - 1));

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

const transientStatus = (s: number) => s === 408 || s === 429 || s === 502 || s === 503 || s === 504;

function askedDelay(res: Response): number | undefined {
  const h = res.headers.get('retry-after');
  if (!h || (res.status !== 429 && res.status !== 503)) return undefined;
  const seconds = /^\s*(\d+)\s*$/.exec(h);
  if (seconds) return Number(seconds[1]) * 1000;
  const date = Date.parse(h);
  if (isNaN(date)) return undefined;
  return Math.max(0, date - Date.now());
}

export function fetchWithRetry(url: string | URL, init: RequestInit | undefined, opts: RetryOptions): Promise<Response> {
  const f = opts.fetch ?? globalThis.fetch;
  const now = opts.now ?? (() => performance.now());
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? ((ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }));
  const max = opts.maxAttempts ?? 3;
  const method = init?.method?.toUpperCase() ?? 'GET';
  const repeatable =
    typeof opts.idempotencyKey === 'string' ||
    (typeof opts.idempotent === 'boolean' ? opts.idempotent : ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(method));
  const headers = new Headers(init?.headers ?? {});
  if (typeof opts.idempotencyKey === 'string') headers.set('idempotency-key', opts.idempotencyKey);
  const caller = opts.signal;

  const attempt = async (n: number): Promise<Response> => {
    // n = attempts already sent
    if (caller?.aborted) throw new RetryError('aborted', n, { cause: caller.reason });
    const left = opts.deadlineAt - now();
    if (!(left > 0)) throw new RetryError('deadline-exceeded', n);
    const ms = Math.floor(Math.min(opts.attemptTimeoutMs ?? 1000, left));
    const timeoutSignal = AbortSignal.timeout(ms);
    const signal = caller ? AbortSignal.any([timeoutSignal, caller]) : timeoutSignal;
    const sent = n + 1;
    let transient: { status?: number; cause?: unknown; asked?: number };
    try {
      const res = await f(url, { ...init, headers, signal });
      if (res.status >= 200 && res.status < 300) return res;
      if (!transientStatus(res.status)) throw new RetryError('not-retryable', sent, { status: res.status });
      transient = { status: res.status, asked: askedDelay(res) };
    } catch (e) {
      if (e instanceof RetryError) throw e;
      if (caller?.aborted) throw new RetryError('aborted', sent, { cause: e });
      const isTimeout = e instanceof DOMException && e.name === 'TimeoutError';
      if (!isTimeout && !(e instanceof TypeError)) throw new RetryError('not-retryable', sent, { cause: e });
      transient = { cause: e };
    }
    const info = { status: transient.status, cause: transient.cause };
    if (!repeatable) throw new RetryError('not-idempotent', sent, info);
    if (sent >= max) throw new RetryError('gave-up', sent, info);
    const wait = transient.asked ?? fullJitterDelay(sent, opts.baseMs ?? 100, opts.capMs ?? 2000, random);
    if (now() + wait >= opts.deadlineAt) throw new RetryError('no-time-left', sent, info);
    if (opts.budget?.trySpend() === false) throw new RetryError('budget-exhausted', sent, info);
    await sleep(wait, caller).catch((e: unknown) => {
      throw caller?.aborted ? new RetryError('aborted', sent, { cause: e }) : e;
    });
    return attempt(sent);
  };

  opts.budget?.deposit();
  return attempt(0);
}
