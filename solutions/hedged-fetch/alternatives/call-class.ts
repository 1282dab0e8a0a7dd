// A correct alternative: each call is an object with one method per event (hedge due, attempt
// settled, caller aborted, deadline). Attempts follow the caller's signal through AbortSignal.any;
// the deadline is a plain setTimeout that is cleared on the way out. The budget compares with a
// small tolerance instead of exact arithmetic.

export interface HedgeBudget {
  recordRequest(): void;
  tryHedge(): boolean;
}

export class RatioHedgeBudget implements HedgeBudget {
  private counts = { requests: 0, hedges: 0 };
  constructor(public readonly maxHedgeRatio: number = 0.05) {}
  get requests() {
    return this.counts.requests;
  }
  get hedges() {
    return this.counts.hedges;
  }
  recordRequest() {
    this.counts.requests++;
  }
  tryHedge() {
    const allowance = this.maxHedgeRatio * this.counts.requests + 1e-9; // 0.29 * 100 is 28.999999999999996
    if (this.counts.hedges + 1 > allowance) return false;
    this.counts.hedges++;
    return true;
  }
}

export type Attempt<T> = (signal: AbortSignal, attempt: number) => Promise<T>;

export interface HedgeOptions {
  hedgeDelayMs: number;
  budget: HedgeBudget;
  method?: string;
  idempotent?: boolean;
  signal?: AbortSignal;
  deadlineAt?: number;
  now?: () => number;
}

class HedgedCall<T> {
  private readonly attempts: AbortController[] = [];
  private running = 0;
  private over = false;
  private hedgeDecided: boolean;
  private timers: Array<ReturnType<typeof setTimeout>> = [];
  private readonly now: () => number;
  private resolve!: (v: T) => void;
  private reject!: (e: unknown) => void;
  readonly result: Promise<T>;

  constructor(
    private readonly request: Attempt<T>,
    private readonly opts: HedgeOptions,
    private readonly mayHedge: boolean,
  ) {
    this.now = opts.now ?? (() => performance.now());
    this.hedgeDecided = !mayHedge;
    this.result = new Promise<T>((res, rej) => {
      this.resolve = res;
      this.reject = rej;
    });
  }

  start(): void {
    const { signal, deadlineAt, hedgeDelayMs } = this.opts;
    if (signal?.aborted) return this.end(() => this.reject(signal.reason));
    if (deadlineAt !== undefined) {
      const left = deadlineAt - this.now();
      if (left <= 0) return this.end(() => this.reject(new DOMException('deadline already passed', 'TimeoutError')));
      // A timer longer than 2^31 - 1 ms fires after about 1 ms: clamp a far deadline.
      this.timers.push(setTimeout(() => this.onDeadline(), Math.min(left, 2 ** 31 - 1)));
    }
    signal?.addEventListener('abort', this.onCallerAbort);
    this.opts.budget.recordRequest();
    this.send(1);
    if (!this.hedgeDecided) this.timers.push(setTimeout(() => this.decideHedge(), hedgeDelayMs));
  }

  private readonly onCallerAbort = () => {
    this.end(() => this.reject(this.opts.signal!.reason));
  };

  private onDeadline(): void {
    this.end(() => this.reject(new DOMException('deadline passed', 'TimeoutError')));
  }

  /** Returns true when the hedge was sent. */
  private decideHedge(): boolean {
    if (this.over || this.hedgeDecided) return false;
    this.hedgeDecided = true;
    const { deadlineAt, hedgeDelayMs, budget } = this.opts;
    if (deadlineAt !== undefined && deadlineAt - this.now() <= hedgeDelayMs) return false;
    if (!budget.tryHedge()) return false;
    this.send(2);
    return true;
  }

  private send(n: number): void {
    const own = new AbortController();
    this.attempts.push(own);
    this.running++;
    const signal = this.opts.signal ? AbortSignal.any([this.opts.signal, own.signal]) : own.signal;
    (async () => this.request(signal, n))().then(
      (value) => this.onSuccess(own, value),
      (error: unknown) => this.onFailure(n, error),
    );
  }

  private onSuccess(winner: AbortController, value: T): void {
    this.running--;
    this.end(() => this.resolve(value), winner);
  }

  private onFailure(n: number, error: unknown): void {
    this.running--;
    if (this.over) return;
    if (n === 1 && this.decideHedge()) return;
    if (this.running === 0) this.end(() => this.reject(error));
  }

  private end(settle: () => void, winner?: AbortController): void {
    if (this.over) return;
    this.over = true;
    for (const t of this.timers) clearTimeout(t);
    this.opts.signal?.removeEventListener('abort', this.onCallerAbort);
    for (const a of this.attempts) if (a !== winner) a.abort();
    settle();
  }
}

export function hedgedFetch<T>(request: Attempt<T>, opts: HedgeOptions): Promise<T> {
  const method = opts.method?.toUpperCase() ?? 'GET';
  const mayHedge = opts.idempotent ?? (method === 'GET' || method === 'HEAD' || method === 'OPTIONS');
  const call = new HedgedCall(request, opts, mayHedge);
  call.start();
  return call.result;
}
