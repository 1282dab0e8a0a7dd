// Alternative: a Backoff class holds validated options; the exported functions are thin
// wrappers. The ceiling doubles in a loop that stops at the cap (no exponentiation at all),
// and the schedule is a generator.

export type Random = () => number;
export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

class Backoff {
  constructor(
    readonly baseMs: number,
    readonly capMs: number,
  ) {
    if (!Number.isFinite(baseMs) || baseMs <= 0) throw new RangeError(`bad baseMs: ${baseMs}`);
    if (!Number.isFinite(capMs) || capMs < baseMs) throw new RangeError(`bad capMs: ${capMs}`);
  }

  ceiling(failures: number): number {
    if (!Number.isInteger(failures) || failures < 1) throw new RangeError(`bad failures: ${failures}`);
    let t = this.baseMs;
    // At most about 1075 doublings before t passes any finite cap, whatever `failures` is.
    for (let n = 1; n < failures && t < this.capMs; n++) t *= 2;
    return Math.min(this.capMs, t);
  }

  full(failures: number, random: Random): number {
    const t = this.ceiling(failures);
    return t * random();
  }

  equal(failures: number, random: Random): number {
    const t = this.ceiling(failures);
    return (t * (1 + random())) / 2;
  }

  decorrelated(previousMs: number, random: Random): number {
    if (!Number.isFinite(previousMs) || previousMs < this.baseMs) throw new RangeError(`bad previousMs: ${previousMs}`);
    const lo = this.baseMs;
    const hi = previousMs * 3;
    const r = random();
    return Math.min(this.capMs, lo * (1 - r) + hi * r);
  }

  *schedule(strategy: Strategy, retries: number, random: Random): Generator<number> {
    let previous = this.baseMs;
    for (let failures = 1; failures <= retries; failures++) {
      switch (strategy) {
        case 'none':
          yield this.ceiling(failures);
          break;
        case 'full':
          yield this.full(failures, random);
          break;
        case 'equal':
          yield this.equal(failures, random);
          break;
        case 'decorrelated':
          previous = this.decorrelated(previous, random);
          yield previous;
          break;
      }
    }
  }
}

export function exponentialDelay(failures: number, baseMs: number, capMs: number): number {
  return new Backoff(baseMs, capMs).ceiling(failures);
}

export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  return new Backoff(baseMs, capMs).full(failures, random);
}

export function equalJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  return new Backoff(baseMs, capMs).equal(failures, random);
}

export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  return new Backoff(baseMs, capMs).decorrelated(previousMs, random);
}

export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  if (!['none', 'full', 'equal', 'decorrelated'].includes(strategy)) throw new RangeError(`bad strategy: ${strategy}`);
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError(`bad retries: ${retries}`);
  return [...new Backoff(baseMs, capMs).schedule(strategy, retries, random)];
}
