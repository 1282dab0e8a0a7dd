// Assertions and outcomes the hidden suites share (see scope.ts for how the support is mounted and bundled).
import { expect } from 'vitest';

/** How a call settled, whether it threw synchronously, rejected or resolved. */
export async function settle<T>(run: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** An error as a learner reads it: its class and message. */
export function describeError(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** Expects `make()` to throw a RangeError; fails with what happened otherwise. */
export function expectRangeError(make: () => unknown, what: string): void {
  let thrown: unknown;
  let threw = false;
  try {
    make();
  } catch (e) {
    thrown = e;
    threw = true;
  }
  if (!threw) expect.fail(`${what}: expected a RangeError, but nothing was thrown`);
  if (!(thrown instanceof RangeError)) expect.fail(`${what}: expected a RangeError, but got ${describeError(thrown)}`);
}

/** Expects `make()` not to throw; fails with the error otherwise. */
export function expectAccepted(make: () => unknown, what: string): void {
  try {
    make();
  } catch (e) {
    expect.fail(`${what}: valid options were rejected with ${describeError(e)}`);
  }
}
