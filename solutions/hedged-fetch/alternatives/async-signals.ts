// A correct alternative: async/await around one "call" signal that combines the caller's signal
// with AbortSignal.timeout for the deadline (unref'd, so it never holds the process); each attempt
// follows that signal plus its own controller. The hedge delay is a cancellable promise.
// The budget keeps public counters and compares with a division.

export interface HedgeBudget {
  recordRequest(): void;
  tryHedge(): boolean;
}

export class RatioHedgeBudget implements HedgeBudget {
  requests = 0;
  hedges = 0;
  constructor(readonly maxHedgeRatio = 0.05) {}

  recordRequest(): void {
    this.requests += 1;
  }

  tryHedge(): boolean {
    const ok = this.requests > 0 && (this.hedges + 1) / this.requests <= this.maxHedgeRatio;
    if (ok) this.hedges += 1;
    return ok;
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

type Outcome<T> = { attempt: number; ok: true; value: T } | { attempt: number; ok: false; error: unknown };

/** Resolves after ms, or with 'cancelled' when the signal aborts; the timer is always cleared. */
function wait(ms: number, signal: AbortSignal): Promise<'elapsed' | 'cancelled'> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve('cancelled');
    const done = (how: 'elapsed' | 'cancelled') => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(how);
    };
    const onAbort = () => done('cancelled');
    const timer = setTimeout(() => done('elapsed'), ms);
    signal.addEventListener('abort', onAbort);
  });
}

export async function hedgedFetch<T>(request: Attempt<T>, opts: HedgeOptions): Promise<T> {
  const now = opts.now ?? (() => performance.now());
  const safe = ['GET', 'HEAD', 'OPTIONS'].includes((opts.method ?? 'get').toUpperCase());
  const mayHedge = opts.idempotent ?? safe;

  if (opts.signal?.aborted) throw opts.signal.reason;
  const sources: AbortSignal[] = opts.signal ? [opts.signal] : [];
  if (opts.deadlineAt !== undefined) {
    const left = opts.deadlineAt - now();
    if (left <= 0) throw new DOMException('deadline passed before the call', 'TimeoutError');
    sources.push(AbortSignal.timeout(Math.max(1, Math.ceil(Math.min(left, 2 ** 31 - 1)))));
  }
  const callSignal = sources.length > 0 ? AbortSignal.any(sources) : new AbortController().signal;

  const done = new AbortController(); // aborted when this call is over, whatever the outcome
  const controllers = new Map<number, AbortController>();
  let wake: (() => void) | undefined;
  const events: Array<Outcome<T> | 'stopped'> = [];
  const push = (o: Outcome<T> | 'stopped') => {
    events.push(o);
    wake?.();
  };
  const next = async (): Promise<Outcome<T> | 'stopped'> => {
    while (events.length === 0) await new Promise<void>((r) => (wake = () => r()));
    return events.shift()!;
  };

  const start = (attempt: number) => {
    const own = new AbortController();
    controllers.set(attempt, own);
    const signal = AbortSignal.any([callSignal, own.signal]);
    Promise.resolve()
      .then(() => request(signal, attempt))
      .then(
        (value) => push({ attempt, ok: true, value }),
        (error: unknown) => push({ attempt, ok: false, error }),
      );
  };

  const onStop = () => push('stopped');
  callSignal.addEventListener('abort', onStop, { once: true });

  const hedgeAllowed = () =>
    mayHedge && (opts.deadlineAt === undefined || opts.deadlineAt - now() > opts.hedgeDelayMs) && opts.budget.tryHedge();

  try {
    opts.budget.recordRequest();
    start(1);
    let running = 1;
    let hedgeDecided = !mayHedge;
    if (!hedgeDecided) {
      void wait(opts.hedgeDelayMs, done.signal).then((how) => {
        if (how === 'elapsed' && !hedgeDecided) push({ attempt: 0, ok: false, error: 'hedge-due' });
      });
    }
    let lastError: unknown;
    for (;;) {
      const event = await next();
      if (event === 'stopped') throw callSignal.reason;
      if (event.attempt === 0) {
        // the hedge timer fired
        if (hedgeDecided) continue;
        hedgeDecided = true;
        if (hedgeAllowed()) (start(2), running++);
        continue;
      }
      running--;
      if (event.ok) {
        for (const [n, c] of controllers) if (n !== event.attempt) c.abort(new Error('lost the race'));
        return event.value;
      }
      lastError = event.error;
      if (event.attempt === 1 && !hedgeDecided) {
        hedgeDecided = true;
        if (hedgeAllowed()) {
          start(2);
          running++;
          continue;
        }
      }
      if (running === 0) throw lastError;
    }
  } finally {
    done.abort();
    callSignal.removeEventListener('abort', onStop);
  }
}
