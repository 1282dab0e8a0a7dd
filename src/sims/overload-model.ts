/**
 * The tick model behind the overload-recovery lab: a client fleet sends to a backend with a FIFO
 * queue; the backend loses part of its capacity for a while. Clients time out, may retry (with a
 * budget), may throttle themselves (the SRE book's adaptive throttle, counted fleet-wide); the
 * backend may shed (refuse arrivals whose wait would exceed the timeout, drop expired work).
 */
import { substream, type Rng } from './random.ts';

export const TICK_MS = 100;

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

const ticks = (ms: number): number => Math.max(1, Math.ceil(ms / TICK_MS));

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

export function simulateOverload(p: OverloadParams, on: Protection, seed: number, label: string): OverloadTrace {
  const rng: Rng = substream(seed, `overload-recovery/${label}`);
  const lossStartTick = Math.round((p.warmupS * 1000) / TICK_MS);
  const lossEndTick = lossStartTick + Math.round((p.lossS * 1000) / TICK_MS);
  const total = lossEndTick + Math.round((p.observeS * 1000) / TICK_MS);
  const timeout = ticks(p.timeoutMs);
  const window = Math.max(1, Math.round((p.throttleWindowS * 1000) / TICK_MS));
  const rejectCost = p.rejectCostPct / 100;
  const tokenCap = (p.budgetPercent / 100) * p.newPerTick * (1000 / TICK_MS); // one second of deposits
  let tokens = tokenCap;

  // retries[t][a]: attempts number a (1-based retries) scheduled for tick t.
  const retries = new Float64Array((total + 1) * p.maxAttempts);
  const reqs = new Float64Array(total); // throttle: requests counted per tick
  const accs = new Float64Array(total); // throttle: accepts counted per tick
  let winReqs = 0;
  let winAccs = 0;
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
    if (!on.retries || attempt + 1 >= p.maxAttempts) return;
    if (on.budget) {
      if (tokens < 1) return;
      tokens -= 1;
    }
    const wait = ticks(rng() * Math.min(2000, p.retryBaseMs * 2 ** attempt));
    if (t + wait < total) retries[(t + wait) * p.maxAttempts + attempt + 1]! += 1;
  };

  for (let t = 0; t < total; t++) {
    if (t >= window) {
      winReqs -= reqs[t - window]!;
      winAccs -= accs[t - window]!;
    }
    const reject = on.throttle ? Math.max(0, (winReqs - p.throttleK * winAccs) / (winReqs + 1)) : 0;
    if (on.budget) tokens = Math.min(tokenCap, tokens + (p.budgetPercent / 100) * p.newPerTick);
    const cap = t >= lossStartTick && t < lossEndTick ? (p.capacityPerTick * p.capacityLeftPct) / 100 : p.capacityPerTick;
    let offered = 0;
    let throttled = 0;
    let shed = 0;
    let work = cap; // units of capacity left this tick

    // Arrivals: new requests and due retries pass the client's throttle, then the backend's door.
    for (let a = 0; a < p.maxAttempts; a++) {
      const n = a === 0 ? p.newPerTick : retries[t * p.maxAttempts + a]!;
      for (let i = 0; i < n; i++) {
        reqs[t]! += 1;
        if (reject > 0 && rng() < reject) {
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
    winReqs += reqs[t]!;

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
    accs[t] = good;
    winAccs += good;
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

const STABLE_TICKS = Math.round(5000 / TICK_MS);

/** Ms after the capacity came back until the run is healthy for good (at least 5 s left), or null. */
export function recoveryAfterMs(trace: OverloadTrace, p: OverloadParams): number | null {
  const end = trace.offered.length;
  let first = end;
  while (first > trace.lossEndTick && healthyAt(trace, first - 1, p)) first--;
  return end - first >= STABLE_TICKS ? (first - trace.lossEndTick) * TICK_MS : null;
}
