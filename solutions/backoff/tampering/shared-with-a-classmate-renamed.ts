// tampering: the classmate's solution of shared-with-a-classmate.ts, its names changed
// full-marks-flagged: problem.similar

export type Random = () => number;
export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

function v0_as(condition: boolean, message: string): asserts condition {
  if (!condition) throw new RangeError(message);
}

function v1_as(baseMs: number, capMs: number): void {
  v0_as(Number.isFinite(baseMs) && baseMs > 0, 'baseMs must be a finite number above 0');
  v0_as(Number.isFinite(capMs) && capMs >= baseMs, 'capMs must be finite and at least baseMs');
}

export function exponentialDelay(v6_fa: number, baseMs: number, capMs: number): number {
  v0_as(Number.isInteger(v6_fa) && v6_fa >= 1, 'v6_fa must be a whole number from 1');
  v1_as(baseMs, capMs);
  return Math.min(capMs, baseMs * Math.pow(2, v6_fa - 1));
}

export function fullJitterDelay(v6_fa: number, baseMs: number, capMs: number, random: Random): number {
  const v2_ce = exponentialDelay(v6_fa, baseMs, capMs);
  return v2_ce * random();
}

export function equalJitterDelay(v6_fa: number, baseMs: number, capMs: number, random: Random): number {
  const v2_ce = exponentialDelay(v6_fa, baseMs, capMs);
  // Same distribution as t/2 + r * t/2: r = 0 gives t/2, r close to 1 gives close to t.
  return v2_ce - ((1 - random()) * v2_ce) / 2;
}

export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  v1_as(baseMs, capMs);
  v0_as(Number.isFinite(previousMs) && previousMs >= baseMs, 'previousMs must be finite and at least baseMs');
  const v3_sp = 3 * previousMs - baseMs;
  return Math.min(capMs, baseMs + v3_sp * random());
}

const v4_is = (s: unknown): s is Strategy => s === 'none' || s === 'full' || s === 'equal' || s === 'decorrelated';

export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  v0_as(v4_is(strategy), 'strategy must be none, full, equal or decorrelated');
  v0_as(Number.isInteger(retries) && retries >= 0, 'retries must be a whole number from 0');
  v1_as(baseMs, capMs);
  let v5_pr = baseMs;
  return Array.from({ length: retries }, (_, i) => {
    const v6_fa = i + 1;
    if (strategy === 'full') return fullJitterDelay(v6_fa, baseMs, capMs, random);
    if (strategy === 'equal') return equalJitterDelay(v6_fa, baseMs, capMs, random);
    if (strategy === 'none') return exponentialDelay(v6_fa, baseMs, capMs);
    v5_pr = decorrelatedJitterDelay(v5_pr, baseMs, capMs, random);
    return v5_pr;
  });
}
