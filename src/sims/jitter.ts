/** The backoff delay of each jitter strategy, as the jitter-waves lab runs them beside the learner's own. */
import type { Rng } from './random.ts';

/** Backoff strategies from the AWS Architecture Blog, "Exponential Backoff And Jitter" (2015). */
export type JitterStrategy = 'none' | 'equal' | 'full' | 'decorrelated';
export const JITTER_STRATEGIES: readonly JitterStrategy[] = ['none', 'equal', 'full', 'decorrelated'];

export interface BackoffConfig {
  baseMs: number;
  capMs: number;
}

/**
 * The sleep before retry number `attempt` (0 for the first retry).
 * `previousMs` is the previous sleep; only decorrelated jitter uses it (pass `baseMs` for the first retry).
 *   none:         min(cap, base * 2^attempt)
 *   equal:        t = min(cap, base * 2^attempt); t/2 + random(0, t/2)
 *   full:         random(0, min(cap, base * 2^attempt))
 *   decorrelated: min(cap, random(base, previous * 3))
 */
export function backoffDelay(strategy: JitterStrategy, attempt: number, previousMs: number, { baseMs, capMs }: BackoffConfig, rng: Rng): number {
  const exp = Math.min(capMs, baseMs * 2 ** attempt);
  switch (strategy) {
    case 'none':
      return exp;
    case 'equal':
      return exp / 2 + rng() * (exp / 2);
    case 'full':
      return rng() * exp;
    case 'decorrelated':
      return Math.min(capMs, baseMs + rng() * (previousMs * 3 - baseMs));
  }
}

/** The closed interval a delay must fall in, for tests and for explaining the formulas. */
export function backoffBounds(strategy: JitterStrategy, attempt: number, previousMs: number, { baseMs, capMs }: BackoffConfig): [number, number] {
  const exp = Math.min(capMs, baseMs * 2 ** attempt);
  switch (strategy) {
    case 'none':
      return [exp, exp];
    case 'equal':
      return [exp / 2, exp];
    case 'full':
      return [0, exp];
    case 'decorrelated':
      return [Math.min(capMs, baseMs), Math.min(capMs, previousMs * 3)];
  }
}
