// Alternative: #private fields, a deque read from a moving head index instead of shift(), and the
// probability written as 1 - (k * accepts + 1) / (requests + 1), which is the same number.

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

/** Event times in a growing array; `head` skips the expired ones and the array is compacted now and then. */
class Deque {
  #times: number[] = [];
  #head = 0;

  push(t: number): void {
    this.#times.push(t);
  }

  sizeSince(oldestKept: (t: number) => boolean): number {
    while (this.#head < this.#times.length && !oldestKept(this.#times[this.#head]!)) this.#head++;
    if (this.#head > 1024 && this.#head * 2 > this.#times.length) {
      this.#times = this.#times.slice(this.#head);
      this.#head = 0;
    }
    return this.#times.length - this.#head;
  }
}

export class AdaptiveThrottle implements Throttle {
  #k: number;
  #windowMs: number;
  #now: () => number;
  #random: () => number;
  #requests = new Deque();
  #accepts = new Deque();

  constructor({ k = 2, windowMs = 120_000, now = () => performance.now(), random = Math.random }: AdaptiveThrottleOptions = {}) {
    if (!(Number.isFinite(k) && k >= 1)) throw new RangeError(`invalid k: ${k}`);
    if (!(Number.isSafeInteger(windowMs) && windowMs >= 1)) throw new RangeError(`invalid windowMs: ${windowMs}`);
    this.#k = k;
    this.#windowMs = windowMs;
    this.#now = now;
    this.#random = random;
  }

  #fresh(): (t: number) => boolean {
    const now = this.#now();
    return (t) => now - t < this.#windowMs;
  }

  get requests(): number {
    return this.#requests.sizeSince(this.#fresh());
  }

  get accepts(): number {
    return this.#accepts.sizeSince(this.#fresh());
  }

  rejectProbability(): number {
    const fresh = this.#fresh();
    const r = this.#requests.sizeSince(fresh);
    const a = this.#accepts.sizeSince(fresh);
    const p = 1 - (this.#k * a + 1) / (r + 1);
    return p > 0 ? p : 0;
  }

  admit(): boolean {
    const p = this.rejectProbability();
    this.#requests.push(this.#now());
    const draw = this.#random();
    return draw >= p;
  }

  record(accepted: boolean): void {
    if (accepted === true) this.#accepts.push(this.#now());
  }
}

export class ThrottledError extends Error {
  override name = 'ThrottledError';
}

export function callThrottled<T>(
  throttle: Throttle,
  send: () => Promise<T>,
  { isOverload = () => true }: { isOverload?: (error: unknown) => boolean } = {},
): Promise<T> {
  if (!throttle.admit()) return Promise.reject(new ThrottledError('throttled locally'));
  // Not async, so a send() that throws before returning a promise would escape the call unrecorded.
  let sent: Promise<T>;
  try {
    sent = send();
  } catch (error) {
    sent = Promise.reject(error);
  }
  return sent.then(
    (value) => {
      throttle.record(true);
      return value;
    },
    (error: unknown) => {
      throttle.record(!isOverload(error));
      throw error;
    },
  );
}
