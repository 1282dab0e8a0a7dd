// Hedged requests: make every rule H1–H11 of the brief hold.
// Hedged request: hãy làm cho mọi rule H1–H11 trong đề bài đều đạt.

export interface HedgeBudget {
  /** Counts one call: once per hedgedFetch call that sends its first attempt. */
  recordRequest(): void;
  /** Asked at most once per call, just before a hedge would be sent; true = send it (and count it). */
  tryHedge(): boolean;
}

/** Allows a hedge only while hedges + 1 <= maxHedgeRatio * requests (counted since creation). */
export class RatioHedgeBudget implements HedgeBudget {
  readonly maxHedgeRatio: number;
  requests = 0; // calls recorded
  hedges = 0; // hedges allowed

  constructor(maxHedgeRatio = 0.05) {
    this.maxHedgeRatio = maxHedgeRatio;
  }

  recordRequest(): void {
    // TODO H7
  }

  tryHedge(): boolean {
    // TODO H7
    return true;
  }
}

/** Sends one attempt: 1 for the first, 2 for the hedge. It must stop when `signal` aborts. */
export type Attempt<T> = (signal: AbortSignal, attempt: number) => Promise<T>;

export interface HedgeOptions {
  hedgeDelayMs: number; // wait this long for the first attempt before sending the hedge (e.g. the p95)
  budget: HedgeBudget; // caps the share of calls that may hedge
  method?: string; // default 'GET'
  idempotent?: boolean; // default: true for GET, HEAD, OPTIONS only
  signal?: AbortSignal; // the caller's cancellation
  deadlineAt?: number; // absolute time on the now() clock; default: no deadline
  now?: () => number; // default performance.now
}

export function hedgedFetch<T>(request: Attempt<T>, opts: HedgeOptions): Promise<T> {
  // TODO H1–H11: this sends a single attempt and never hedges.
  return request(new AbortController().signal, 1);
}
