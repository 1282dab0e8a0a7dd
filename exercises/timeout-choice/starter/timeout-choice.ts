// Choosing a timeout: make every rule C1–C9 of the brief hold.
// Chọn timeout: hãy làm cho mọi rule C1–C9 trong đề bài đều đạt.

export interface TimeoutOptions {
  falseTimeoutRate: number; // a fraction in (0, 1): 0.001 means 0.1 % of healthy calls may time out
  paddingMs?: number; // finite, >= 0, added after the percentile; default 0
}

/** Nearest-rank percentile: the smallest sample with at least p % of the samples at or below it. */
export function percentile(samples: readonly number[], p: number): number {
  // TODO C1–C4, C8, C9
  throw new Error('percentile: not implemented yet');
}

/** The percentile at 100 * (1 - falseTimeoutRate), plus paddingMs, rounded up to a whole millisecond. */
export function timeoutFor(samples: readonly number[], opts: TimeoutOptions): number {
  // TODO C4, C5, C7, C8, C9
  throw new Error('timeoutFor: not implemented yet');
}

/** Share (0..1) of the samples strictly above timeoutMs: a call that ends exactly at the limit is not cut. */
export function falseTimeoutRate(samples: readonly number[], timeoutMs: number): number {
  // TODO C4, C6, C7, C8, C9
  throw new Error('falseTimeoutRate: not implemented yet');
}
