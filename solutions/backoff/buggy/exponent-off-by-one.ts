// expect-fail: B1
// Bug: doubles once too often (2 ** failures), so the first retry waits 2 × baseMs.
// Backoff delays as pure functions: the caller passes the source of randomness, so the same
// inputs always give the same delay and a test can pin every edge without sleeping.
// Formulas: AWS Architecture Blog, "Exponential Backoff And Jitter" (2015). `failures` counts
// like the retry helper's fullJitterDelay: 1 before the first retry, i.e. AWS's attempt + 1.

/** Uniform in [0, 1): Math.random in production, a fixed or seeded function in tests. */
export type Random = () => number;

export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

const STRATEGIES: ReadonlySet<string> = new Set<Strategy>(['none', 'full', 'equal', 'decorrelated']);

// `!(x > 0)` rather than `x <= 0`: NaN fails every comparison, so only the negated form rejects it.
function checkOptions(baseMs: number, capMs: number): void {
  if (!(baseMs > 0) || !Number.isFinite(baseMs)) throw new RangeError(`baseMs must be a finite number > 0, got ${baseMs}`);
  if (!(capMs >= baseMs) || !Number.isFinite(capMs)) {
    throw new RangeError(`capMs must be a finite number >= baseMs (${baseMs}), got ${capMs}`);
  }
}

function checkFailures(failures: number): void {
  if (!Number.isInteger(failures) || failures < 1) throw new RangeError(`failures must be a whole number >= 1, got ${failures}`);
}

/** The capped exponential ceiling before retry number `failures`: min(capMs, baseMs * 2 ** (failures - 1)). */
export function exponentialDelay(failures: number, baseMs: number, capMs: number): number {
  checkFailures(failures);
  checkOptions(baseMs, capMs);
  // 2 ** n is Infinity from n = 1024 on, and Math.min(capMs, Infinity) is capMs: no overflow to
  // handle, as long as the cap is applied here, before any jitter multiplies the ceiling
  // (0 * Infinity would be NaN).
  return Math.min(capMs, baseMs * 2 ** failures);
}

/** Full jitter: random() * exponentialDelay(failures, baseMs, capMs); anywhere in [0, ceiling]. */
export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const ceiling = exponentialDelay(failures, baseMs, capMs); // validate before drawing
  return random() * ceiling;
}

/** Equal jitter: t / 2 + random() * (t / 2) with t = exponentialDelay(...); in [t / 2, t]. */
export function equalJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const half = exponentialDelay(failures, baseMs, capMs) / 2;
  // No rounding: with an odd ceiling a floored half would fall below the promised floor.
  return half + random() * half;
}

/** Decorrelated jitter: min(capMs, a random value between baseMs and previousMs * 3). */
export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  checkOptions(baseMs, capMs);
  // Every decorrelated wait is at least baseMs, so a smaller previous wait cannot come from this
  // formula; it would also turn the range upside down and let the wait drop below baseMs.
  if (!(previousMs >= baseMs) || !Number.isFinite(previousMs)) {
    throw new RangeError(`previousMs must be a finite number >= baseMs (${baseMs}), got ${previousMs}`);
  }
  return Math.min(capMs, baseMs + random() * (previousMs * 3 - baseMs));
}

/** The waits before retries 1..retries with one strategy. */
export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  // Check everything up front: a loop that only validates inside would accept bad options
  // whenever retries is 0.
  if (!STRATEGIES.has(strategy)) throw new RangeError(`unknown strategy ${String(strategy)}`);
  if (!Number.isInteger(retries) || retries < 0) throw new RangeError(`retries must be a whole number >= 0, got ${retries}`);
  checkOptions(baseMs, capMs);

  const waits: number[] = [];
  let previous = baseMs; // AWS: the first previous sleep is the base
  for (let failures = 1; failures <= retries; failures++) {
    let wait: number;
    if (strategy === 'none') wait = exponentialDelay(failures, baseMs, capMs);
    else if (strategy === 'full') wait = fullJitterDelay(failures, baseMs, capMs, random);
    else if (strategy === 'equal') wait = equalJitterDelay(failures, baseMs, capMs, random);
    // Decorrelated ignores the failure count: it walks from the wait actually slept (already capped).
    else wait = decorrelatedJitterDelay(previous, baseMs, capMs, random);
    waits.push(wait);
    previous = wait;
  }
  return waits;
}
