// Adaptive throttling: make every rule A1–A9 of the brief hold.
// Adaptive throttling: hãy làm cho mọi rule A1–A9 trong đề bài đều đạt.

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

/** The SRE book's client-side throttle: refuse locally with max(0, (requests - k * accepts) / (requests + 1)). */
export class AdaptiveThrottle implements Throttle {
  constructor(opts: AdaptiveThrottleOptions = {}) {
    // TODO A6, A7, A9: keep the options, check them, and pick the defaults.
  }

  /** Requests counted in the window now, refused ones included. */
  get requests(): number {
    // TODO A3, A6
    return 0;
  }

  /** Requests the backend accepted, counted in the window now. */
  get accepts(): number {
    // TODO A5, A6
    return 0;
  }

  /** max(0, (requests - k * accepts) / (requests + 1)) over the window. */
  rejectProbability(): number {
    // TODO A2, A7
    return 0;
  }

  /** Counts one request; true means send it, false means refuse it locally. */
  admit(): boolean {
    // TODO A1, A3, A4: this never refuses and counts nothing.
    return true;
  }

  /** Once per request that was sent: whether the backend accepted it. */
  record(accepted: boolean): void {
    // TODO A5
  }
}

/** The error of a request the throttle refused locally: never sent, and not to be retried. */
export class ThrottledError extends Error {
  constructor(message = 'refused locally by the adaptive throttle') {
    super(message);
    // TODO A8: give it its own name.
  }
}

/** Sends through the throttle: refuses locally, or sends once and records whether the backend accepted. */
export async function callThrottled<T>(throttle: Throttle, send: () => Promise<T>, opts: { isOverload?: (error: unknown) => boolean } = {}): Promise<T> {
  // TODO A8: this sends without asking the throttle and records nothing.
  return send();
}
