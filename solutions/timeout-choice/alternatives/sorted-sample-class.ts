// Alternative: a class that validates and sorts once, then answers every question from the
// sorted copy. A Float64Array sorts numerically by default; the timeout is found by counting
// how many samples may lie above it, and the rate by a binary search.

export interface TimeoutOptions {
  falseTimeoutRate: number;
  paddingMs?: number;
}

class SortedLatencies {
  private readonly sorted: Float64Array;

  constructor(samples: readonly number[]) {
    if (samples.length === 0) throw new RangeError('samples: need at least one latency');
    for (let i = 0; i < samples.length; i++) {
      const ms = samples[i]!;
      if (Number.isNaN(ms) || ms < 0 || ms === Infinity) throw new RangeError(`samples: item ${i} is ${ms}, not a latency`);
    }
    this.sorted = Float64Array.from(samples).sort(); // a copy; typed arrays compare numbers
  }

  get size(): number {
    return this.sorted.length;
  }

  /** The sample at 1-based rank `rank`, clamped to the ends. */
  atRank(rank: number): number {
    return this.sorted[Math.min(this.size, Math.max(1, rank)) - 1]!;
  }

  /** How many samples are strictly above `x`: the first index holding a value > x. */
  countAbove(x: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]! <= x) lo = mid + 1;
      else hi = mid;
    }
    return this.size - lo;
  }
}

export function percentile(samples: readonly number[], p: number): number {
  const data = new SortedLatencies(samples);
  if (Number.isNaN(p) || p <= 0 || p > 100) throw new RangeError(`percentile: p = ${p} is outside (0, 100]`);
  return data.atRank(Math.ceil((p * data.size) / 100));
}

export function timeoutFor(samples: readonly number[], opts: TimeoutOptions): number {
  const data = new SortedLatencies(samples);
  const { falseTimeoutRate: rate, paddingMs = 0 } = opts;
  if (Number.isNaN(rate) || rate <= 0 || rate >= 1) throw new RangeError(`falseTimeoutRate = ${rate} is not a fraction strictly between 0 and 1`);
  if (Number.isNaN(paddingMs) || paddingMs < 0 || paddingMs === Infinity) throw new RangeError(`paddingMs = ${paddingMs} must be finite and not negative`);
  // At most floor(rate * n) samples may lie above the timeout, so it sits at the sample just below them.
  const allowedAbove = Math.floor(rate * data.size);
  return Math.ceil(data.atRank(data.size - allowedAbove) + paddingMs);
}

export function falseTimeoutRate(samples: readonly number[], timeoutMs: number): number {
  const data = new SortedLatencies(samples);
  if (Number.isNaN(timeoutMs) || timeoutMs < 0) throw new RangeError(`timeoutMs = ${timeoutMs} must not be negative`);
  return data.countAbove(timeoutMs) / data.size;
}
