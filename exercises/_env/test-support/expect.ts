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

/**
 * Calls `start` (one call of the learner's async function, named `fn`) without awaiting it, as a caller
 * does that starts several calls before awaiting any, or writes `fn(…).catch(…)`: fails the test when
 * the call throws synchronously or returns something that is not a promise. Awaited (or inside a
 * try/catch), a synchronous throw looks like a rejection; the briefs promise a promise that rejects,
 * even when the outcome is known before anything is sent. Returns the promise.
 */
export function startedPromise<T>(start: () => Promise<T>, what: string, fn: string, show: (value: unknown) => string = describeError): Promise<T> {
  let result: unknown;
  try {
    result = start();
  } catch (error) {
    expect.fail(
      `${what}: ${fn} threw synchronously (${show(error)}), out of the call itself; it must return a promise that rejects with it (make the function async, or return Promise.reject(...))`,
    );
  }
  if (typeof (result as { then?: unknown } | null | undefined)?.then !== 'function') {
    expect.fail(`${what}: ${fn} returned ${show(result)}, not a promise`);
  }
  return Promise.resolve(result as PromiseLike<T>);
}
