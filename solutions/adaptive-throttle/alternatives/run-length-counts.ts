// Alternative: one list of [time, count] pairs per kind (a burst at one instant is one entry) with a
// running total, plain functions behind the class, and a loop-free probability.

export interface AdaptiveThrottleOptions {
  k?: number;
  windowMs?: number;
  now?: () => number;
  random?: () => number;
}

export interface Throttle {
  admit(): boolean;
  record(accepted: boolean): void;
}

/** Runs of [time, count] oldest first, from `head` on; `total` is the sum of the counts still in the window. */
interface Runs {
  list: Array<[time: number, count: number]>;
  head: number;
  total: number;
}

const emptyRuns = (): Runs => ({ list: [], head: 0, total: 0 });

function add(runs: Runs, time: number): void {
  const last = runs.list[runs.list.length - 1];
  if (last && runs.list.length > runs.head && last[0] === time) last[1] += 1;
  else runs.list.push([time, 1]);
  runs.total += 1;
}

/** Drops the runs that left the window (amortised O(1): a moving head, compacted now and then). */
function countFresh(runs: Runs, now: number, windowMs: number): number {
  while (runs.head < runs.list.length && now - runs.list[runs.head]![0] >= windowMs) {
    runs.total -= runs.list[runs.head]![1];
    runs.head++;
  }
  if (runs.head > 1024 && runs.head * 2 > runs.list.length) {
    runs.list.splice(0, runs.head);
    runs.head = 0;
  }
  return runs.total;
}

function checkOptions(k: number, windowMs: number): void {
  const kOk = typeof k === 'number' && k >= 1 && k < Number.POSITIVE_INFINITY;
  const windowOk = typeof windowMs === 'number' && windowMs >= 1 && windowMs % 1 === 0 && windowMs < Number.POSITIVE_INFINITY;
  if (!kOk) throw new RangeError('k must be finite and at least 1');
  if (!windowOk) throw new RangeError('windowMs must be a whole number of milliseconds, at least 1');
}

export class AdaptiveThrottle implements Throttle {
  private readonly requestRuns: Runs = emptyRuns();
  private readonly acceptRuns: Runs = emptyRuns();
  private readonly k: number;
  private readonly windowMs: number;
  private readonly clock: () => number;
  private readonly draw: () => number;

  constructor(options?: AdaptiveThrottleOptions) {
    this.k = options?.k ?? 2;
    this.windowMs = options?.windowMs ?? 2 * 60 * 1000;
    checkOptions(this.k, this.windowMs);
    this.clock = options?.now ?? performance.now.bind(performance);
    this.draw = options?.random ?? (() => Math.random());
  }

  get requests(): number {
    return countFresh(this.requestRuns, this.clock(), this.windowMs);
  }

  get accepts(): number {
    return countFresh(this.acceptRuns, this.clock(), this.windowMs);
  }

  rejectProbability(): number {
    const requests = this.requests;
    const excess = requests - this.k * this.accepts;
    return excess <= 0 ? 0 : excess / (requests + 1);
  }

  admit(): boolean {
    const probability = this.rejectProbability();
    add(this.requestRuns, this.clock());
    if (probability === 0) return true;
    return this.draw() >= probability;
  }

  record(accepted: boolean): void {
    if (!accepted) return;
    add(this.acceptRuns, this.clock());
  }
}

export class ThrottledError extends Error {
  constructor(message?: string) {
    super(message ?? 'throttled');
    this.name = 'ThrottledError';
    Object.setPrototypeOf(this, new.target.prototype);
  }
}

export async function callThrottled<T>(
  throttle: Throttle,
  send: () => Promise<T>,
  opts?: { isOverload?: (error: unknown) => boolean },
): Promise<T> {
  const admitted = throttle.admit();
  if (!admitted) throw new ThrottledError();
  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await send() };
  } catch (error) {
    outcome = { ok: false, error };
  }
  if (outcome.ok) {
    throttle.record(true);
    return outcome.value;
  }
  const overload = opts?.isOverload ? opts.isOverload(outcome.error) : true;
  throttle.record(!overload);
  throw outcome.error;
}
