// expect-fail: C5
// Bug: returns the padded percentile without rounding it to a whole millisecond.

export interface TimeoutOptions {
  falseTimeoutRate: number; // a fraction in (0, 1): 0.001 means 0.1 % of healthy calls may time out
  paddingMs?: number; // finite, >= 0, added after the percentile; default 0
}

/** Nearest-rank percentile: the smallest sample with at least p % of the samples at or below it. */
export function percentile(samples: readonly number[], p: number): number {
  checkSamples(samples);
  if (!(p > 0 && p <= 100)) throw new RangeError(`p must be in (0, 100], got ${p}`);
  const sorted = sortedCopy(samples);
  return sorted[nearestRank(p, sorted.length) - 1]!;
}

/** The percentile at 100 * (1 - falseTimeoutRate), plus paddingMs, rounded up to a whole millisecond. */
export function timeoutFor(samples: readonly number[], opts: TimeoutOptions): number {
  checkSamples(samples);
  const rate = opts.falseTimeoutRate;
  // 0 would promise that no healthy call is ever cut, which no finite sample can show.
  if (!(rate > 0 && rate < 1)) throw new RangeError(`falseTimeoutRate must be a fraction in (0, 1), got ${rate}`);
  const padding = opts.paddingMs ?? 0;
  if (!(Number.isFinite(padding) && padding >= 0)) throw new RangeError(`paddingMs must be a finite number >= 0, got ${padding}`);
  const atTarget = percentile(samples, 100 * (1 - rate));
  // Up, never down: a timeout rounded down would cut the very sample that met the target.
  return atTarget + padding;
}

/** Share (0..1) of the samples strictly above timeoutMs: a call that ends exactly at the limit is not cut. */
export function falseTimeoutRate(samples: readonly number[], timeoutMs: number): number {
  checkSamples(samples);
  if (!(timeoutMs >= 0)) throw new RangeError(`timeoutMs must be a number >= 0, got ${timeoutMs}`);
  let cut = 0;
  for (const ms of samples) if (ms > timeoutMs) cut++;
  return cut / samples.length;
}

function checkSamples(samples: readonly number[]): void {
  if (samples.length === 0) throw new RangeError('samples must not be empty');
  samples.forEach((ms, i) => {
    // `!(ms >= 0)` is also true for NaN, which every plain comparison lets through.
    if (!(Number.isFinite(ms) && ms >= 0)) throw new RangeError(`samples[${i}] must be a finite latency >= 0, got ${ms}`);
  });
}

/** A sorted copy: the caller's array stays as it was, and numbers compare as numbers, not strings. */
function sortedCopy(samples: readonly number[]): number[] {
  return [...samples].sort((a, b) => a - b);
}

/**
 * ceil(p / 100 * n), clamped to 1..n. The product carries binary rounding error
 * (99.9 / 100 * 1000 is 999.0000000000001 in JavaScript), so a value within 1e-9 of a whole
 * rank is taken as that rank: p99.9 of 1,000 samples is the 999th, as the definition says.
 */
function nearestRank(p: number, n: number): number {
  const exact = (p / 100) * n;
  const nearest = Math.round(exact);
  const rank = Math.abs(exact - nearest) < 1e-9 ? nearest : Math.ceil(exact);
  return Math.min(n, Math.max(1, rank));
}
