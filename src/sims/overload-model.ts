/**
 * The tick model behind the overload-recovery lab: a client fleet sends to a backend with a FIFO
 * queue; the backend loses part of its capacity for a while. Clients time out, may retry (with a
 * budget), may throttle themselves (the SRE book's adaptive throttle, counted fleet-wide); the
 * backend may shed (refuse arrivals whose wait would exceed the timeout, drop expired work).
 */
import { substream, type Rng } from './random.ts';
import { incident, recoveredAfterMs, Schedule, TICK_MS, ticks } from './tick-model.ts';

export { TICK_MS } from './tick-model.ts';

export interface OverloadParams extends Record<string, number> {
  capacityPerTick: number;
  newPerTick: number;
  warmupS: number;
  lossS: number;
  capacityLeftPct: number;
  observeS: number;
  timeoutMs: number;
  maxAttempts: number;
  retryBaseMs: number;
  budgetPercent: number;
  throttleK: number;
  throttleWindowS: number;
  rejectCostPct: number;
}

export interface Protection {
  retries: boolean;
  budget: boolean;
  throttle: boolean;
  shed: boolean;
}

export interface OverloadTrace {
  /** Attempts that reached the backend per tick (queued or refused there). */
  offered: number[];
  /** Attempts answered in time per tick: each one completes a user request. */
  goodput: number[];
  /** Attempts refused by the client's own throttle per tick. */
  throttled: number[];
  /** Attempts refused or dropped by the backend per tick. */
  shed: number[];
  /** Age in ticks of the oldest queued attempt at the end of each tick. */
  oldestWait: number[];
  capacity: number[];
  newRequests: number;
  succeeded: number;
  lossStartTick: number;
  lossEndTick: number;
}

/** Growable parallel arrays for queued attempts, in the order they joined the queue. */
class AttemptLog {
  deadline = new Int32Array(1024);
  attempt = new Int8Array(1024);
  sentAt = new Int32Array(1024);
  served = new Uint8Array(1024);
  size = 0;

  push(sentAt: number, deadline: number, attempt: number): void {
    if (this.size === this.deadline.length) this.grow();
    this.sentAt[this.size] = sentAt;
    this.deadline[this.size] = deadline;
    this.attempt[this.size] = attempt;
    this.size++;
  }

  private grow(): void {
    const n = this.deadline.length * 2;
    const copy = <T extends Int32Array | Int8Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.deadline = copy(this.deadline, (k) => new Int32Array(k));
    this.attempt = copy(this.attempt, (k) => new Int8Array(k));
    this.sentAt = copy(this.sentAt, (k) => new Int32Array(k));
    this.served = copy(this.served, (k) => new Uint8Array(k));
  }
}

/**
 * The client's adaptive throttle, asked once per attempt (the adaptive-throttle exercise's API):
 * `admit()` decides on the counts so far, then counts the request; `record(accepted)` counts an accept.
 */
export interface Throttle {
  admit(): boolean;
  record(accepted: boolean): void;
}

/** Builds a run's throttle from the clock (ms) and its own random stream. */
export type MakeThrottle = (now: () => number, random: Rng) => Throttle;

/**
 * The SRE book's throttle, counted fleet-wide over a sliding window of whole ticks: the reference
 * solution of the adaptive-throttle exercise, with its list of timestamps kept as counts per tick (an
 * event at tick e counts while t - e < window, as `now - at < windowMs` with now = t × 100 ms).
 */
export function windowThrottle(p: OverloadParams): MakeThrottle {
  return (now, random) => {
    const window = Math.max(1, Math.round((p.throttleWindowS * 1000) / TICK_MS));
    const reqs: number[] = [];
    const accs: number[] = [];
    let head = 0;
    let winReqs = 0;
    let winAccs = 0;
    const advance = (): number => {
      const t = Math.round(now() / TICK_MS);
      for (; head <= t - window; head++) {
        winReqs -= reqs[head] ?? 0;
        winAccs -= accs[head] ?? 0;
      }
      return t;
    };
    return {
      admit() {
        const t = advance();
        const reject = Math.max(0, (winReqs - p.throttleK * winAccs) / (winReqs + 1));
        reqs[t] = (reqs[t] ?? 0) + 1;
        winReqs++;
        return !(random() < reject);
      },
      record(accepted) {
        if (!accepted) return;
        const t = advance();
        accs[t] = (accs[t] ?? 0) + 1;
        winAccs++;
      },
    };
  };
}

export function simulateOverload(
  p: OverloadParams,
  on: Protection,
  seed: number,
  label: string,
  makeThrottle: MakeThrottle = windowThrottle(p),
): OverloadTrace {
  const rng: Rng = substream(seed, `overload-recovery/${label}`);
  const { startTick: lossStartTick, endTick: lossEndTick, total } = incident(p.warmupS, p.lossS, p.observeS);
  const timeout = ticks(p.timeoutMs);
  const rejectCost = p.rejectCostPct / 100;
  const tokenCap = (p.budgetPercent / 100) * p.newPerTick * (1000 / TICK_MS); // one second of deposits
  let tokens = tokenCap;

  // Attempts number a (1-based retries) scheduled for tick t; those past the end of the run never come.
  const retries = new Schedule(total, p.maxAttempts);
  let tick = 0;
  // The throttle draws from a stream of its own: how often it draws does not move the retries' waits.
  const throttle = on.throttle ? makeThrottle(() => tick * TICK_MS, substream(seed, `overload-recovery/${label}/throttle`)) : undefined;
  const log = new AttemptLog();
  let head = 0; // first attempt still in the backend's queue
  let checked = 0; // first attempt whose client has not yet seen its fate
  const trace: OverloadTrace = {
    offered: [],
    goodput: [],
    throttled: [],
    shed: [],
    oldestWait: [],
    capacity: [],
    newRequests: p.newPerTick * total,
    succeeded: 0,
    lossStartTick,
    lossEndTick,
  };

  const fail = (t: number, attempt: number): void => {
    throttle?.record(false);
    if (!on.retries || attempt + 1 >= p.maxAttempts) return;
    if (on.budget) {
      if (tokens < 1) return;
      tokens -= 1;
    }
    const wait = ticks(rng() * Math.min(2000, p.retryBaseMs * 2 ** attempt));
    retries.add(t + wait, attempt + 1, 1);
  };

  for (let t = 0; t < total; t++) {
    tick = t;
    if (on.budget) tokens = Math.min(tokenCap, tokens + (p.budgetPercent / 100) * p.newPerTick);
    const cap = t >= lossStartTick && t < lossEndTick ? (p.capacityPerTick * p.capacityLeftPct) / 100 : p.capacityPerTick;
    let offered = 0;
    let throttled = 0;
    let shed = 0;
    let work = cap; // units of capacity left this tick

    // Arrivals: new requests and due retries pass the client's throttle, then the backend's door.
    for (let a = 0; a < p.maxAttempts; a++) {
      const n = a === 0 ? p.newPerTick : retries.at(t, a);
      for (let i = 0; i < n; i++) {
        if (throttle && !throttle.admit()) {
          throttled++; // refused locally: final, never retried
          continue;
        }
        offered++;
        const queued = log.size - head;
        if (on.shed && queued >= cap * timeout) {
          shed++; // the expected wait is already the whole timeout: refuse cheaply
          work -= rejectCost;
          fail(t, a);
          continue;
        }
        log.push(t, t + timeout, a);
      }
    }

    // Service: FIFO; with shedding, expired attempts are dropped for the cost of a refusal.
    let good = 0;
    while (head < log.size && work >= 1) {
      if (log.deadline[head]! <= t) {
        work -= on.shed ? rejectCost : 1; // without shedding the backend does the whole job for nobody
        if (on.shed) shed++;
        head++;
        continue;
      }
      log.served[head] = 1;
      work -= 1;
      good++;
      head++;
    }
    if (throttle) for (let i = 0; i < good; i++) throttle.record(true);
    trace.succeeded += good;

    // Clients whose deadline has come and who got no answer see a timeout.
    while (checked < log.size && log.deadline[checked]! <= t + 1) {
      if (!log.served[checked]) fail(t, log.attempt[checked]!);
      checked++;
    }
    trace.offered.push(offered);
    trace.goodput.push(good);
    trace.throttled.push(throttled);
    trace.shed.push(shed);
    trace.oldestWait.push(head < log.size ? t - log.sentAt[head]! : 0);
    trace.capacity.push(cap);
  }
  return trace;
}

/** Healthy: nothing refused by the client or the backend, and no attempt has waited half its timeout. */
export function healthyAt(trace: OverloadTrace, t: number, p: OverloadParams): boolean {
  return trace.throttled[t] === 0 && trace.shed[t] === 0 && trace.oldestWait[t]! * TICK_MS < p.timeoutMs / 2;
}

/** Ms after the capacity came back until the run is healthy for good (at least 5 s left), or null. */
export function recoveryAfterMs(trace: OverloadTrace, p: OverloadParams): number | null {
  return recoveredAfterMs(trace.offered.length, trace.lossEndTick, (t) => healthyAt(trace, t, p));
}
