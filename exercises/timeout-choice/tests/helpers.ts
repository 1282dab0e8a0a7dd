// Shared data and checks for the hidden timeout-choice suite.
import { expect } from 'vitest';

/** The twenty latencies of the lesson's worked example, in ms (sorted here; tests shuffle them). */
export const LESSON = [31, 33, 34, 35, 36, 37, 38, 38, 39, 40, 41, 42, 44, 45, 47, 50, 55, 63, 90, 240] as const;

/** mulberry32: a tiny seeded generator, so every run draws the same "random" samples. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A shuffled copy (Fisher-Yates with a seeded generator). */
export function shuffled<T>(values: readonly T[], seed: number): T[] {
  const random = seeded(seed);
  const out = [...values];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/**
 * n latencies shaped like a real dependency: a body around 40 ms and 2 % of slow calls.
 * Whole milliseconds give many duplicates (so "equal to the timeout" matters); fractional ones do not.
 */
export function latencies(random: () => number, n: number, whole: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const body = 20 + 40 * random() * random() * 3;
    const ms = random() < 0.02 ? 200 + 2000 * random() ** 3 : body;
    out.push(whole ? Math.round(ms) : Math.round(ms * 1000) / 1000);
  }
  return out;
}

/**
 * Where rate × n lands on a whole number, floating-point rounding can move a correct
 * implementation's rank by one sample (99.9 / 100 * 1000 is 999.0000000000001), always towards
 * the safe side. The suite checks only "not above the target" there, never the exact sample.
 */
export function onRankEdge(rate: number, n: number): boolean {
  const x = rate * n;
  return Math.abs(x - Math.round(x)) < 1e-6;
}

/**
 * `want` is the expected sample; a second value is the sample one rank higher, accepted too, but
 * only where p / 100 × n should be a whole number and JavaScript computes it a hair off one
 * (99.9 / 100 * 1000 is 999.0000000000001, which a plain Math.ceil takes up by one rank). Where the
 * product comes out exactly whole (50 / 100 * 4 is 2), only the exact sample passes.
 */
export function expectSample(got: number, want: readonly number[], p: number, n: number, what: string): void {
  const [exact, next] = want;
  const product = (p / 100) * n;
  const offByAHair = !Number.isInteger(product) && Math.abs(product - Math.round(product)) < 1e-9;
  if (next !== undefined && offByAHair && got === next) return;
  const also =
    next === undefined || !offByAHair
      ? ''
      : ` (${next}, one rank higher, is accepted too: p / 100 × n computes to ${product} here, a hair above a whole number)`;
  const whole = next !== undefined && !offByAHair ? ` (p / 100 × n is exactly ${product}: the sample at rank ${product}, not the one above it)` : '';
  expect(got, `${what} should be ${exact}${also}${whole}`).toBe(exact);
}

/** Short text for an array in a failure message. */
export function show(values: readonly number[]): string {
  return values.length <= 24 ? `[${values.join(', ')}]` : `[${values.slice(0, 6).join(', ')}, … ${values.length} samples]`;
}

/** Runs `call` and expects a RangeError whose message names `param`, as the brief asks. */
export function expectRangeError(call: () => unknown, param: string, what: string): void {
  let thrown: unknown;
  let returned: unknown;
  let threw = false;
  try {
    returned = call();
  } catch (err) {
    thrown = err;
    threw = true;
  }
  if (!threw) expect.fail(`${what} returned ${String(returned)} instead of throwing a RangeError`);
  const name = thrown instanceof Error ? thrown.constructor.name : typeof thrown;
  expect(thrown, `${what} threw a ${name}, not a RangeError`).toBeInstanceOf(RangeError);
  expect((thrown as Error).message, `the RangeError from ${what} should name \`${param}\` in its message`).toMatch(new RegExp(`\\b${param}\\b`, 'i'));
}

/** Runs `call` and expects it not to throw; the failure names what was rejected. */
export function accepted<T>(call: () => T, what: string): T {
  try {
    return call();
  } catch (err) {
    return expect.fail(`${what} threw ${err instanceof Error ? `${err.name}: ${err.message}` : String(err)}, but that input is valid`);
  }
}
