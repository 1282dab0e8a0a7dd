/**
 * The few Node globals that learners' code and the hidden suites use, for a browser's Web Worker, so
 * that code written for Node behaves there as it does in the Node grader:
 * - timers return handles with `ref()`, `unref()`, `hasRef()`, `refresh()` and a numeric value (a
 *   learner's `setTimeout(…).unref()` must not throw a TypeError in the page and pass in Node);
 * - `setImmediate` / `clearImmediate`;
 * - `process`: `env`, `nextTick`, and `unhandledRejection` listeners fed by the worker's
 *   `unhandledrejection` event (the hedged-fetch suite swaps them, as it does in Node);
 * - `AbortSignal.timeout` as Node's: it validates the delay (a fraction or more than 2^32−1 ms throws
 *   a RangeError) and aborts from a timer callback. A browser aborts it natively, running microtasks
 *   between the abort listeners of a signal and those of the signals that depend on it, so code could
 *   observe a combined signal not yet aborted where Node never lets it.
 * Installed once, on the worker's global scope, before any suite or learner code runs.
 */

type Callback = (...args: unknown[]) => void;
type Listener = (reason: unknown, promise: Promise<unknown>) => void;

/** What the installer needs of a global scope: a worker's `self`, or a fake in tests. */
export interface TimerScope {
  setTimeout(fn: Callback, ms?: number): number;
  clearTimeout(id?: number): void;
  setInterval(fn: Callback, ms?: number): number;
  clearInterval(id?: number): void;
  addEventListener?(type: 'unhandledrejection', fn: (e: PromiseRejectionEvent) => void): void;
}

/** A Node-like timer handle over a browser timer id. */
export class NodeTimer {
  #ref = true;
  #id: number;
  #restart: () => number;
  constructor(restart: () => number) {
    this.#restart = restart;
    this.#id = restart();
  }
  get id(): number {
    return this.#id;
  }
  ref(): this {
    this.#ref = true;
    return this;
  }
  unref(): this {
    this.#ref = false;
    return this;
  }
  hasRef(): boolean {
    return this.#ref;
  }
  /** Node: restarts the timer with its original delay. */
  refresh(): this {
    this.#id = this.#restart();
    return this;
  }
  [Symbol.toPrimitive](): number {
    return this.#id;
  }
}

function idOf(handle: unknown): number | undefined {
  if (handle instanceof NodeTimer) return handle.id;
  return typeof handle === 'number' ? handle : undefined;
}

/** Node's errors carry a `code`; tests and learners' code may read it. */
function nodeError<E extends Error>(Kind: new (message: string) => E, code: string, message: string): E {
  return Object.assign(new Kind(message), { code });
}

/** Node's `AbortSignal.timeout(delay)`, driven by `setTimer` (a timer that never keeps anything alive). */
export function nodeAbortSignalTimeout(setTimer: (fn: () => void, ms: number) => unknown) {
  return function timeout(delay: unknown): AbortSignal {
    if (typeof delay !== 'number') {
      throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "delay" argument must be of type number. Received type ${typeof delay} (${String(delay)})`);
    }
    if (!Number.isInteger(delay))
      throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "delay" is out of range. It must be an integer. Received ${delay}`);
    if (delay < 0 || delay > 4294967295) {
      throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "delay" is out of range. It must be >= 0 && <= 4294967295. Received ${delay}`);
    }
    const controller = new AbortController();
    // Node's timers turn a delay past 2^31−1 ms into 1 ms (TimeoutOverflowWarning).
    setTimer(() => controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), delay > 2147483647 ? 1 : delay);
    return controller.signal;
  };
}

export function installNodeGlobals(scope: TimerScope & Record<string, unknown>): void {
  const real = {
    setTimeout: scope.setTimeout.bind(scope),
    clearTimeout: scope.clearTimeout.bind(scope),
    setInterval: scope.setInterval.bind(scope),
    clearInterval: scope.clearInterval.bind(scope),
  };
  const byNumber = new Map<number, NodeTimer>(); // clearTimeout(+handle) must clear the same timer

  const timer = (kind: 'timeout' | 'interval', fn: Callback, ms: number | undefined, args: unknown[]) => {
    if (typeof fn !== 'function') throw new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
    let handle: NodeTimer;
    const run = () => {
      if (kind === 'timeout') byNumber.delete(handle.id);
      fn(...args);
    };
    handle = new NodeTimer(() => {
      if (handle) {
        real.clearTimeout(handle.id);
        real.clearInterval(handle.id);
        byNumber.delete(handle.id);
      }
      const id = kind === 'timeout' ? real.setTimeout(run, ms) : real.setInterval(run, ms);
      byNumber.set(id, handle);
      return id;
    });
    return handle;
  };
  const clear = (handle: unknown) => {
    const id = idOf(handle);
    if (id === undefined) return;
    byNumber.delete(id);
    real.clearTimeout(id);
    real.clearInterval(id);
  };

  scope.setTimeout = ((fn: Callback, ms?: number, ...args: unknown[]) => timer('timeout', fn, ms, args)) as never;
  scope.setInterval = ((fn: Callback, ms?: number, ...args: unknown[]) => timer('interval', fn, ms, args)) as never;
  scope.clearTimeout = clear as never;
  scope.clearInterval = clear as never;
  scope.setImmediate = (fn: Callback, ...args: unknown[]) => timer('timeout', fn, 0, args);
  scope.clearImmediate = clear;

  const listeners: Listener[] = [];
  const process = {
    env: {} as Record<string, string>,
    argv: [] as string[],
    platform: 'browser',
    versions: {} as Record<string, string>,
    nextTick: (fn: Callback, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
    on(event: string, fn: Listener) {
      if (event === 'unhandledRejection') listeners.push(fn);
      return process;
    },
    off(event: string, fn: Listener) {
      const i = event === 'unhandledRejection' ? listeners.indexOf(fn) : -1;
      if (i >= 0) listeners.splice(i, 1);
      return process;
    },
    listeners: (event: string) => (event === 'unhandledRejection' ? [...listeners] : []),
    removeAllListeners(event?: string) {
      if (event === undefined || event === 'unhandledRejection') listeners.length = 0;
      return process;
    },
  };
  scope.process = process;
  ((scope.AbortSignal as { timeout: unknown } | undefined) ?? AbortSignal).timeout = nodeAbortSignalTimeout((fn, ms) => real.setTimeout(fn, ms));
  scope.addEventListener?.('unhandledrejection', (e) => {
    if (listeners.length === 0) return;
    e.preventDefault();
    for (const fn of [...listeners]) fn(e.reason, e.promise);
  });
}
