// expect-fail: H9
// Bug: arms the deadline timer with the raw time left: a deadline more than 2^31 - 1 ms away fires
// after about 1 ms and the call rejects with a TimeoutError at once.

export interface HedgeBudget {
  /** Counts one call: once per hedgedFetch call that sends its first attempt. */
  recordRequest(): void;
  /** Asked at most once per call, just before a hedge would be sent; true = send it (and count it). */
  tryHedge(): boolean;
}

/** Allows a hedge only while hedges + 1 <= maxHedgeRatio * requests (counted since creation). */
export class RatioHedgeBudget implements HedgeBudget {
  readonly maxHedgeRatio: number;
  #requests = 0;
  #hedges = 0;

  constructor(maxHedgeRatio = 0.05) {
    this.maxHedgeRatio = maxHedgeRatio;
  }

  get requests(): number {
    return this.#requests;
  }

  get hedges(): number {
    return this.#hedges;
  }

  recordRequest(): void {
    this.#requests++;
  }

  tryHedge(): boolean {
    // The new hedge counts too: with a 5% cap the first hedge needs 20 requests behind it.
    if (this.#hedges + 1 > this.maxHedgeRatio * this.#requests) return false;
    this.#hedges++;
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

// Safe reads (RFC 9110). PUT and DELETE are idempotent one after the other, but two copies in
// flight at the same moment can still collide (a 409 from an idempotency-key store): opt-in only.
const HEDGEABLE_BY_DEFAULT = new Set(['GET', 'HEAD', 'OPTIONS']);

function deadlineError(): Error {
  return new DOMException('hedgedFetch: the deadline passed', 'TimeoutError');
}

export function hedgedFetch<T>(request: Attempt<T>, opts: HedgeOptions): Promise<T> {
  const { hedgeDelayMs, budget, signal, deadlineAt } = opts;
  const now = opts.now ?? (() => performance.now());
  const method = (opts.method ?? 'GET').toUpperCase();
  const idempotent = opts.idempotent ?? HEDGEABLE_BY_DEFAULT.has(method);

  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const leftAtStart = deadlineAt === undefined ? Infinity : deadlineAt - now();
    if (leftAtStart <= 0) return reject(deadlineError());

    const controllers: AbortController[] = [];
    let running = 0;
    let settled = false;
    let hedgeConsidered = false;
    let hedgeTimer: ReturnType<typeof setTimeout> | undefined;
    let deadlineTimer: ReturnType<typeof setTimeout> | undefined;

    // `why` becomes the losers' abort reason: the caller's reason, the deadline, or a lost race.
    const finish = (
      winner: AbortController | undefined,
      settle: () => void,
      why: unknown = new Error('hedgedFetch: another attempt won'),
    ) => {
      if (settled) return;
      settled = true;
      clearTimeout(hedgeTimer); // a hedge must never start after the call is over
      clearTimeout(deadlineTimer); // nor may a timer hold the process for nothing
      signal?.removeEventListener('abort', onCallerAbort);
      // Abort the losers only: aborting the winner would cut a body the caller has not read.
      for (const c of controllers) if (c !== winner) c.abort(why);
      settle();
    };

    const onCallerAbort = () => finish(undefined, () => reject(signal!.reason), signal!.reason);

    const send = (attempt: number) => {
      const controller = new AbortController();
      controllers.push(controller);
      running++;
      // The caller's abort and the deadline go through finish(), which aborts every controller,
      // so each attempt only needs its own signal.
      let promise: Promise<T>;
      try {
        promise = Promise.resolve(request(controller.signal, attempt));
      } catch (err) {
        promise = Promise.reject(err);
      }
      promise.then(
        (value) => {
          running--;
          finish(controller, () => resolve(value));
        },
        (err: unknown) => {
          running--;
          if (settled) return; // a loser failing after being aborted: already handled
          if (attempt === 1 && !hedgeConsidered) {
            // Failed before the hedge delay: the hedge goes out now instead of later.
            clearTimeout(hedgeTimer);
            if (considerHedge()) return;
          }
          if (running === 0) finish(undefined, () => reject(err)); // the last failure speaks
        },
      );
    };

    /** Sends the hedge if every condition holds; returns whether it was sent. Runs at most once. */
    const considerHedge = (): boolean => {
      if (settled || hedgeConsidered) return false;
      hedgeConsidered = true;
      if (!idempotent) return false;
      // A copy with less than one hedge delay left is load with little chance to help.
      if (deadlineAt !== undefined && !(deadlineAt - now() > hedgeDelayMs)) return false;
      if (!budget.tryHedge()) return false; // asked last: a refused or unsent hedge costs nothing
      send(2);
      return true;
    };

    signal?.addEventListener('abort', onCallerAbort, { once: true });
    if (deadlineAt !== undefined) {
      // Bug: no clamp. setTimeout fires anything above 2^31 - 1 ms after about 1 ms.
      const ms = leftAtStart;
      deadlineTimer = setTimeout(() => {
        const err = deadlineError();
        finish(undefined, () => reject(err), err);
      }, ms);
    }
    budget.recordRequest();
    if (idempotent) hedgeTimer = setTimeout(considerHedge, hedgeDelayMs);
    send(1);
  });
}
