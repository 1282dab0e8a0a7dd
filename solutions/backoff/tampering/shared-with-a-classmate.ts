// tampering: one solution handed in by two learners (this file and solutions/backoff/tampering/shared-with-a-classmate-renamed.ts)
// full-marks-flagged: problem.similar

export type Random = () => number;
export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

function assert(condition: boolean, message: string): asserts condition {
  if (!condition) throw new RangeError(message);
}

function assertOptions(baseMs: number, capMs: number): void {
  assert(Number.isFinite(baseMs) && baseMs > 0, 'baseMs must be a finite number above 0');
  assert(Number.isFinite(capMs) && capMs >= baseMs, 'capMs must be finite and at least baseMs');
}

export function exponentialDelay(failures: number, baseMs: number, capMs: number): number {
  assert(Number.isInteger(failures) && failures >= 1, 'failures must be a whole number from 1');
  assertOptions(baseMs, capMs);
  return Math.min(capMs, baseMs * Math.pow(2, failures - 1));
}

export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const ceiling = exponentialDelay(failures, baseMs, capMs);
  return ceiling * random();
}

export function equalJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const ceiling = exponentialDelay(failures, baseMs, capMs);
  // Same distribution as t/2 + r * t/2: r = 0 gives t/2, r close to 1 gives close to t.
  return ceiling - ((1 - random()) * ceiling) / 2;
}

export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  assertOptions(baseMs, capMs);
  assert(Number.isFinite(previousMs) && previousMs >= baseMs, 'previousMs must be finite and at least baseMs');
  const span = 3 * previousMs - baseMs;
  return Math.min(capMs, baseMs + span * random());
}

const isStrategy = (s: unknown): s is Strategy => s === 'none' || s === 'full' || s === 'equal' || s === 'decorrelated';

export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  assert(isStrategy(strategy), 'strategy must be none, full, equal or decorrelated');
  assert(Number.isInteger(retries) && retries >= 0, 'retries must be a whole number from 0');
  assertOptions(baseMs, capMs);
  let previous = baseMs;
  return Array.from({ length: retries }, (_, i) => {
    const failures = i + 1;
    if (strategy === 'full') return fullJitterDelay(failures, baseMs, capMs, random);
    if (strategy === 'equal') return equalJitterDelay(failures, baseMs, capMs, random);
    if (strategy === 'none') return exponentialDelay(failures, baseMs, capMs);
    previous = decorrelatedJitterDelay(previous, baseMs, capMs, random);
    return previous;
  });
}
