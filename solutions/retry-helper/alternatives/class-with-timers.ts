// A correct implementation written unlike the reference: a class, a plain-object header map,
// setTimeout + AbortController for the attempt timeout, max(Retry-After, jitter), a token
// bucket compared with a tolerance, and the budget spent after the wait.

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
    super(reason, opts && 'cause' in opts ? { cause: opts.cause } : undefined);
    this.name = 'RetryError';
    this.reason = reason;
    this.attempts = attempts;
    this.status = opts?.status;
  }
}

export interface RetryBudget {
  deposit(): void;
  trySpend(): boolean;
}

class TokenBucket implements RetryBudget {
  private tokens: number;
  constructor(
    private readonly ratio: number,
    private readonly max: number,
  ) {
    this.tokens = max;
  }
  deposit(): void {
    this.tokens = Math.min(this.max, this.tokens + this.ratio);
  }
  trySpend(): boolean {
    if (this.tokens + 1e-9 < 1) return false;
    this.tokens = Math.max(0, this.tokens - 1);
    return true;
  }
}

export function tokenBucketBudget(opts?: { ratio?: number; maxTokens?: number }): RetryBudget {
  return new TokenBucket(opts?.ratio ?? 0.1, opts?.maxTokens ?? 10);
}

export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: () => number): number {
  let ceiling = baseMs;
  for (let i = 1; i < failures && ceiling < capMs; i++) ceiling *= 2;
  return Math.min(capMs, ceiling) * random();
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

type Outcome =
  | { kind: 'ok'; res: Response }
  | { kind: 'transient'; status?: number; retryAfterMs?: number; cause?: unknown }
  | { kind: 'fatal'; error: RetryError };

class Retrier {
  private sent = 0;
  private readonly headers: Record<string, string>;
  private readonly doFetch: typeof globalThis.fetch;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void>;

  constructor(
    private readonly url: string | URL,
    private readonly init: RequestInit | undefined,
    private readonly o: RetryOptions,
  ) {
    this.headers = {};
    new Headers(init?.headers).forEach((value, name) => (this.headers[name] = value));
    if (o.idempotencyKey != null) this.headers['idempotency-key'] = o.idempotencyKey;
    this.doFetch = o.fetch ?? globalThis.fetch;
    this.now = o.now ?? performance.now.bind(performance);
    this.random = o.random ?? Math.random;
    this.sleep = o.sleep ?? Retrier.timerSleep;
  }

  private static timerSleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        clearTimeout(id);
        reject(new Error('aborted'));
      };
      const id = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort);
    });
  }

  private safeToRepeat(): boolean {
    if (this.o.idempotencyKey != null) return true;
    if (this.o.idempotent != null) return this.o.idempotent;
    return ['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes((this.init?.method ?? 'get').toUpperCase());
  }

  private fail(reason: RetryReason, extra?: { status?: number; cause?: unknown }): RetryError {
    return new RetryError(reason, this.sent, extra);
  }

  private static retryAfter(res: Response): number | undefined {
    if (res.status !== 429 && res.status !== 503) return undefined;
    const raw = res.headers.get('Retry-After');
    if (raw == null) return undefined;
    const text = raw.trim();
    if (/^[0-9]+$/.test(text)) return parseInt(text, 10) * 1000;
    const when = new Date(text).getTime();
    if (!Number.isFinite(when)) return undefined;
    const ms = when - Date.now();
    return ms > 0 ? ms : 0;
  }

  private async attempt(timeoutMs: number): Promise<Outcome> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const caller = this.o.signal;
    const follow = () => controller.abort();
    caller?.addEventListener('abort', follow);
    this.sent += 1;
    try {
      const res = await this.doFetch(this.url, { ...this.init, headers: this.headers, signal: controller.signal });
      if (res.status >= 200 && res.status <= 299) return { kind: 'ok', res };
      if ([408, 429, 502, 503, 504].includes(res.status)) {
        return { kind: 'transient', status: res.status, retryAfterMs: Retrier.retryAfter(res) };
      }
      return { kind: 'fatal', error: this.fail('not-retryable', { status: res.status }) };
    } catch (err) {
      if (caller?.aborted) return { kind: 'fatal', error: this.fail('aborted', { cause: err }) };
      if (timedOut || err instanceof TypeError) return { kind: 'transient', cause: err };
      return { kind: 'fatal', error: this.fail('not-retryable', { cause: err }) };
    } finally {
      clearTimeout(timer);
      caller?.removeEventListener('abort', follow);
    }
  }

  async run(): Promise<Response> {
    const maxAttempts = this.o.maxAttempts ?? 3;
    const baseMs = this.o.baseMs ?? 100;
    const capMs = this.o.capMs ?? 2000;
    const attemptTimeoutMs = this.o.attemptTimeoutMs ?? 1000;
    const { deadlineAt, budget, signal } = this.o;
    budget?.deposit();
    while (true) {
      if (signal?.aborted) throw this.fail('aborted');
      const remaining = deadlineAt - this.now();
      if (remaining <= 0) throw this.fail('deadline-exceeded');
      const outcome = await this.attempt(Math.floor(Math.min(attemptTimeoutMs, remaining)));
      if (outcome.kind === 'ok') return outcome.res;
      if (outcome.kind === 'fatal') throw outcome.error;
      const detail = { status: outcome.status, cause: outcome.cause };
      if (!this.safeToRepeat()) throw this.fail('not-idempotent', detail);
      if (this.sent >= maxAttempts) throw this.fail('gave-up', detail);
      const jitter = fullJitterDelay(this.sent, baseMs, capMs, this.random);
      const wait = outcome.retryAfterMs == null ? jitter : Math.max(outcome.retryAfterMs, jitter);
      if (this.now() + wait >= deadlineAt) throw this.fail('no-time-left', detail);
      try {
        await this.sleep(wait, signal);
      } catch (err) {
        if (signal?.aborted) throw this.fail('aborted', { cause: err });
        throw err;
      }
      if (signal?.aborted) throw this.fail('aborted');
      if (budget && !budget.trySpend()) throw this.fail('budget-exhausted', detail);
    }
  }
}

export function fetchWithRetry(url: string | URL, init: RequestInit | undefined, opts: RetryOptions): Promise<Response> {
  return new Retrier(url, init, opts).run();
}
