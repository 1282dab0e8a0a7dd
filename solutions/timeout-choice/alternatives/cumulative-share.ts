// Alternative: read the definition literally. Walk the sorted samples and stop at the first one
// whose cumulative share reaches p %. Validation is one small guard reused everywhere.

export interface TimeoutOptions {
  falseTimeoutRate: number;
  paddingMs?: number;
}

function guard(ok: boolean, message: string): void {
  if (!ok) throw new RangeError(message);
}

function validLatencies(samples: readonly number[]): void {
  guard(samples.length > 0, 'Samples is empty: there is nothing to measure');
  guard(
    samples.every((ms) => Number.isFinite(ms) && ms >= 0),
    'Samples contains a value that is not a finite, non-negative latency',
  );
}

export function percentile(samples: readonly number[], p: number): number {
  validLatencies(samples);
  guard(p > 0 && p <= 100, `Invalid p (${p}): expected 0 < p <= 100`);
  const sorted = samples.toSorted((a, b) => a - b);
  const n = sorted.length;
  // The first sample with at least p % of all samples at or below it.
  for (let i = 0; i < n; i++) {
    if ((i + 1) * 100 >= p * n) return sorted[i]!;
  }
  return sorted[n - 1]!;
}

export function timeoutFor(samples: readonly number[], { falseTimeoutRate, paddingMs = 0 }: TimeoutOptions): number {
  guard(falseTimeoutRate > 0 && falseTimeoutRate < 1, `Invalid falseTimeoutRate (${falseTimeoutRate}): expected a fraction such as 0.001`);
  guard(Number.isFinite(paddingMs) && paddingMs >= 0, `Invalid paddingMs (${paddingMs})`);
  return Math.ceil(percentile(samples, (1 - falseTimeoutRate) * 100) + paddingMs);
}

export function falseTimeoutRate(samples: readonly number[], timeoutMs: number): number {
  validLatencies(samples);
  guard(timeoutMs >= 0, `Invalid timeoutMs (${timeoutMs})`);
  return samples.reduce((cut, ms) => (ms > timeoutMs ? cut + 1 : cut), 0) / samples.length;
}
