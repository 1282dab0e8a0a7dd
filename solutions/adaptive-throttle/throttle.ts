// Reference solution for the adaptive-throttle exercise: the Google SRE book's client-side
// adaptive throttling ("Handling Overload").
//
// The client counts, over a sliding window, the requests it meant to send (refused ones included)
// and the ones the backend accepted, and refuses each new request locally with probability
// max(0, (requests - k * accepts) / (requests + 1)). Time and randomness are injected, so the
// class has no timer and the tests can drive it step by step.

export interface AdaptiveThrottleOptions {
  k?: number; // the multiplier K: finite and >= 1; default 2
  windowMs?: number; // how long an event counts: a whole number of ms >= 1; default 120000 (two minutes)
  now?: () => number; // the clock in ms; default performance.now
  random?: () => number; // uniform in [0, 1); default Math.random
}

/** What `callThrottled` needs from a throttle. */
export interface Throttle {
  admit(): boolean;
  record(accepted: boolean): void;
}

/** Timestamps of events, oldest first, that forget what is `windowMs` old or older. */
class SlidingCount {
  private times: number[] = [];
  // The oldest event still counted, as an index: shift() would copy the whole list on every call.
  private first = 0;

  constructor(private readonly windowMs: number) {}

  add(at: number): void {
    this.times.push(at);
  }

  countAt(now: number): number {
    // An event at t counts while now - t < windowMs.
    while (this.first < this.times.length && now - this.times[this.first]! >= this.windowMs) this.first++;
    if (this.first > 1024 && this.first * 2 > this.times.length) {
      this.times = this.times.slice(this.first);
      this.first = 0;
    }
    return this.times.length - this.first;
  }
}

export class AdaptiveThrottle implements Throttle {
  private readonly k: number;
  private readonly now: () => number;
  private readonly random: () => number;
  private readonly requestTimes: SlidingCount;
  private readonly acceptTimes: SlidingCount;

  constructor(opts: AdaptiveThrottleOptions = {}) {
    const k = opts.k ?? 2;
    const windowMs = opts.windowMs ?? 120_000;
    // Below 1 the throttle would refuse requests from a backend that accepts all of them.
    if (!Number.isFinite(k) || k < 1) throw new RangeError(`k must be a finite number >= 1, got ${k}`);
    if (!Number.isInteger(windowMs) || windowMs < 1) {
      throw new RangeError(`windowMs must be a whole number of milliseconds >= 1, got ${windowMs}`);
    }
    this.k = k;
    this.now = opts.now ?? (() => performance.now());
    this.random = opts.random ?? Math.random;
    this.requestTimes = new SlidingCount(windowMs);
    this.acceptTimes = new SlidingCount(windowMs);
  }

  get requests(): number {
    return this.requestTimes.countAt(this.now());
  }

  get accepts(): number {
    return this.acceptTimes.countAt(this.now());
  }

  rejectProbability(): number {
    const requests = this.requests;
    return Math.max(0, (requests - this.k * this.accepts) / (requests + 1));
  }

  /** Counts one request; true means send it, false means refuse it locally. */
  admit(): boolean {
    const p = this.rejectProbability(); // decided from the counts before this request
    this.requestTimes.add(this.now());
    return !(this.random() < p);
  }

  /** Once per request that was sent: whether the backend accepted it. */
  record(accepted: boolean): void {
    if (accepted) this.acceptTimes.add(this.now());
  }
}

/** The error of a request the throttle refused locally: never sent, and not to be retried. */
export class ThrottledError extends Error {
  constructor(message = 'refused locally by the adaptive throttle') {
    super(message);
    this.name = 'ThrottledError';
  }
}

/** Sends through the throttle: refuses locally, or sends once and records whether the backend accepted. */
export async function callThrottled<T>(
  throttle: Throttle,
  send: () => Promise<T>,
  opts: { isOverload?: (error: unknown) => boolean } = {},
): Promise<T> {
  if (!throttle.admit()) throw new ThrottledError();
  const isOverload = opts.isOverload ?? (() => true);
  let value: T;
  try {
    value = await send();
  } catch (error) {
    throttle.record(!isOverload(error));
    throw error;
  }
  throttle.record(true);
  return value;
}
