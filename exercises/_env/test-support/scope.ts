// Shared by the hidden suites (mounted beside them at the sandbox root, listed in ENV_FILES, bundled
// with them for the worker runner): what one test opened, released when it finishes. A rule's tests may
// run side by side (test.concurrent), so each test gets a scope of its own through the `h` fixture.
import { test as vitestTest } from 'vitest';

export class TestScope {
  closed = false;
  private readonly cleanups: Array<() => void> = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private readonly retained = new Set<unknown>();

  /** Runs fn when the test finishes (last registered, first run). */
  defer(fn: () => void): void {
    this.cleanups.push(fn);
  }

  /** A timer of this test's, cleared when it finishes; none is set once it has. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  /** A real-clock sleep of this test's, its timer cleared when the test finishes. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.defer(() => clearTimeout(timer));
    });
  }

  /** Resolves true as soon as `condition()` holds, or false after `maxMs`. */
  async until(condition: () => boolean, maxMs: number): Promise<boolean> {
    const end = performance.now() + maxMs;
    while (!condition()) {
      if (performance.now() > end) return false;
      await this.sleep(5);
    }
    return true;
  }

  /**
   * Node 20 holds the sources of AbortSignal.any() weakly, so AbortSignal.any([x, AbortSignal.timeout(ms)])
   * can be garbage collected before the timeout fires and never abort (nodejs/node#57736, fixed in
   * later Node lines). That is a runtime bug, not the learner's: the tests hold every source strongly
   * until the test ends.
   */
  retain(signal: unknown): void {
    if (!(signal instanceof AbortSignal) || this.retained.has(signal)) return;
    this.retained.add(signal);
    for (const sym of Object.getOwnPropertySymbols(signal)) {
      if (sym.description !== 'kSourceSignals') continue;
      try {
        // biome-ignore lint/suspicious/noExplicitAny: Node's internal set of source signals
        for (const ref of Set.prototype.values.call((signal as any)[sym])) {
          const source = typeof ref?.deref === 'function' ? ref.deref() : ref;
          if (source) this.retain(source);
        }
      } catch {
        // another runtime's internals: nothing to hold
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.retained.clear();
    for (const fn of this.cleanups.splice(0).reverse()) {
      try {
        fn();
      } catch {
        // cleanup is best effort
      }
    }
  }
}

/** vitest's test with an `h` fixture: a fresh scope per test, closed when the test finishes. */
export function scopedTest<S extends TestScope>(make: () => S) {
  return vitestTest.extend<{ h: S }>({
    // vitest reads fixture dependencies from the first parameter, which must be a destructuring pattern
    // biome-ignore lint/correctness/noEmptyPattern: see above
    h: async ({}, use) => {
      const scope = make();
      try {
        await use(scope);
      } finally {
        scope.close();
      }
    },
  });
}
