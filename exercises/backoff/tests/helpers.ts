// Shared pieces of the hidden backoff suite: deterministic random sources, the capped ceiling
// for bounds, and assertions whose messages say what was observed.
import { expect } from 'vitest';

export type Random = () => number;

/** The largest double below 1: the highest value a [0, 1) generator can return. */
export const JUST_BELOW_ONE = 1 - 2 ** -53;

/** mulberry32: a tiny seeded generator, uniform in [0, 1). */
export function seeded(seed: number): Random {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Returns `values` in order, then repeats the last one. */
export function sequence(values: number[]): Random {
  let i = 0;
  return () => values[Math.min(i++, values.length - 1)]!;
}

/** Wraps a random source and counts how often it is called. */
export function counting(random: Random) {
  const c = { calls: 0, random: () => (c.calls++, random()) };
  return c;
}

// The capped ceiling, written out for the suite's own bounds.
export const ceiling = (failures: number, base: number, cap: number) => Math.min(cap, base * 2 ** (failures - 1));

const show = (v: unknown) => (typeof v === 'number' ? String(v) : v === undefined ? 'undefined' : (JSON.stringify(v) ?? String(v)));

/** `actual` is a finite number within 1e-6 of `expected`. */
export function expectDelay(actual: unknown, expected: number, call: string) {
  const ok = typeof actual === 'number' && Number.isFinite(actual) && Math.abs(actual - expected) < 1e-6;
  if (!ok) expect.fail(`${call} returned ${show(actual)}, expected ${expected}`);
}

/** `actual` is a finite number in [lo, hi], give or take floating-point rounding (1e-9 ms). */
export function expectWithin(actual: unknown, lo: number, hi: number, call: string) {
  const ok = typeof actual === 'number' && Number.isFinite(actual) && actual >= lo - 1e-9 && actual <= hi + 1e-9;
  if (!ok) expect.fail(`${call} returned ${show(actual)}, outside [${lo}, ${hi}]`);
}

/** `fn` returns a finite number or an array of them, without throwing. */
export function expectAccepted(fn: () => unknown, call: string) {
  let value: unknown;
  try {
    value = fn();
  } catch (error) {
    expect.fail(`${call} threw ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)}, but its arguments are valid`);
  }
  const values = Array.isArray(value) ? value : [value];
  const ok = values.every((v) => typeof v === 'number' && Number.isFinite(v));
  if (!ok) expect.fail(`${call} returned ${show(value)}, expected a finite delay`);
}

/** `fn` throws a RangeError. */
export function expectRangeError(fn: () => unknown, call: string) {
  let outcome: string;
  try {
    outcome = `returned ${show(fn())}`;
  } catch (error) {
    if (error instanceof RangeError) return;
    outcome = `threw ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)}`;
  }
  expect.fail(`${call} ${outcome}, expected it to throw a RangeError`);
}
