/**
 * The Node globals that learners' code and the hidden suites use, for a browser's Web Worker, so
 * that code written for Node behaves there as it does in the Node grader:
 * - timers return handles with `ref()`, `unref()`, `hasRef()`, `refresh()` and a numeric value (a
 *   learner's `setTimeout(…).unref()` must not throw a TypeError in the page and pass in Node), and
 *   each live ref'd timer counts as a handle that keeps the "process" alive (runtime.ts);
 * - `setImmediate` / `clearImmediate`, one macrotask later (not clamped to 4 ms like a zero timeout);
 * - `process`: `env`, `nextTick`, `hrtime`, `getActiveResourcesInfo()` (the live ref'd timers,
 *   servers and sockets, as Node lists them), `getBuiltinModule()`, and `unhandledRejection`
 *   listeners fed by the worker's `unhandledrejection` event (the hedged-fetch suite swaps them, as
 *   it does in Node);
 * - `Buffer`;
 * - `AbortSignal.timeout` as Node's: it validates the delay (a fraction or more than 2^32−1 ms throws
 *   a RangeError) and aborts from a timer callback. A browser aborts it natively, running microtasks
 *   between the abort listeners of a signal and those of the signals that depend on it, so code could
 *   observe a combined signal not yet aborted where Node never lets it.
 * Installed once, on the worker's global scope, before any suite or learner code runs.
 */
import { Buffer } from 'buffer';
import { nodeError } from './http/index.ts';
import type { Handles, Runtime } from './runtime.ts';

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

let nextImmediateId = 1e9;

/** A Node-like timer handle over a browser timer; a live, ref'd one is a handle that keeps the loop alive. */
export class NodeTimer {
  readonly resourceType: 'Timeout' | 'Immediate';
  /** Node's delay of a timeout, as its Timeout object carries it (a suite's message can name it). */
  _idleTimeout = -1;
  #ref = true;
  #id: number;
  #live = true;
  #restart: () => number;
  #handles: Handles | undefined;
  constructor(restart: () => number, handles?: Handles, resourceType: 'Timeout' | 'Immediate' = 'Timeout') {
    this.#restart = restart;
    this.#handles = handles;
    this.resourceType = resourceType;
    this.#id = restart();
    handles?.add(this);
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
    return this.#ref && this.#live;
  }
  /** Node: restarts the timer with its original delay (a fired timeout is live again). */
  refresh(): this {
    this.#id = this.#restart();
    this.#live = true;
    this.#handles?.add(this);
    return this;
  }
  /** Fired (a timeout) or cleared: it keeps nothing alive any more. */
  _done(): void {
    this.#live = false;
    this.#handles?.delete(this);
  }
  [Symbol.toPrimitive](): number {
    return this.#id;
  }
}

function idOf(handle: unknown): number | undefined {
  if (handle instanceof NodeTimer) return handle.id;
  return typeof handle === 'number' ? handle : undefined;
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

export interface GlobalsDeps {
  rt: Runtime;
  /** Node's built-in modules by name (without `node:`), for process.getBuiltinModule. */
  builtin?: (name: string) => unknown;
}

export function installNodeGlobals(scope: TimerScope & Record<string, unknown>, deps?: GlobalsDeps): void {
  const handles = deps?.rt.handles;
  const real = {
    setTimeout: scope.setTimeout.bind(scope),
    clearTimeout: scope.clearTimeout.bind(scope),
    setInterval: scope.setInterval.bind(scope),
    clearInterval: scope.clearInterval.bind(scope),
  };
  const byNumber = new Map<number, NodeTimer>(); // clearTimeout(+handle) must clear the same timer
  const cancelled = new Set<number>(); // immediates cleared before their turn

  const timer = (kind: 'timeout' | 'interval' | 'immediate', fn: Callback, ms: number | undefined, args: unknown[]) => {
    if (typeof fn !== 'function') throw new TypeError(`The "callback" argument must be of type function. Received ${typeof fn}`);
    let handle: NodeTimer;
    const run = () => {
      if (kind !== 'interval') {
        byNumber.delete(handle.id);
        handle._done();
      }
      fn(...args);
    };
    const start = (): number => {
      if (kind !== 'immediate') return kind === 'timeout' ? real.setTimeout(run, ms) : real.setInterval(run, ms);
      const id = nextImmediateId++;
      const go = () => (cancelled.delete(id) ? undefined : run());
      // Without a runtime (the unit tests of this file), a zero timeout stands in for the macrotask.
      if (deps) deps.rt.io(go);
      else real.setTimeout(go, 0);
      return id;
    };
    handle = new NodeTimer(
      () => {
        if (handle) clearId(handle.id);
        const id = start();
        if (handle) byNumber.set(id, handle);
        return id;
      },
      handles,
      kind === 'immediate' ? 'Immediate' : 'Timeout',
    );
    // Node: a delay that is not a number from 1 to 2^31-1 ms is 1 ms.
    if (kind !== 'immediate') handle._idleTimeout = Number(ms) >= 1 && Number(ms) <= 2 ** 31 - 1 ? Number(ms) : 1;
    byNumber.set(handle.id, handle);
    return handle;
  };
  const clearId = (id: number) => {
    byNumber.delete(id);
    if (id >= 1e9) cancelled.add(id);
    real.clearTimeout(id);
    real.clearInterval(id);
  };
  const clear = (handle: unknown) => {
    const id = idOf(handle);
    if (id === undefined) return;
    (handle instanceof NodeTimer ? handle : byNumber.get(id))?._done();
    clearId(id);
  };

  scope.setTimeout = ((fn: Callback, ms?: number, ...args: unknown[]) => timer('timeout', fn, ms, args)) as never;
  scope.setInterval = ((fn: Callback, ms?: number, ...args: unknown[]) => timer('interval', fn, ms, args)) as never;
  scope.clearTimeout = clear as never;
  scope.clearInterval = clear as never;
  scope.setImmediate = (fn: Callback, ...args: unknown[]) => timer('immediate', fn, 0, args);
  scope.clearImmediate = clear;
  scope.Buffer = Buffer;

  const listeners: Listener[] = [];
  const started = performance.now();
  const hrtime = (prev?: [number, number]): [number, number] => {
    const ns = BigInt(Math.round(performance.now() * 1e6));
    const now: [number, number] = [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];
    if (!prev) return now;
    const diff = (now[0] - prev[0]) * 1e9 + (now[1] - prev[1]);
    return [Math.floor(diff / 1e9), diff % 1e9];
  };
  hrtime.bigint = () => BigInt(Math.round(performance.now() * 1e6));
  const process = {
    env: {} as Record<string, string>,
    argv: [] as string[],
    platform: 'browser',
    versions: {} as Record<string, string>,
    exitCode: undefined as number | undefined,
    cwd: () => '/exercise',
    uptime: () => (performance.now() - started) / 1000,
    hrtime,
    nextTick: (fn: Callback, ...args: unknown[]) => queueMicrotask(() => fn(...args)),
    emitWarning: (warning: unknown) => console.warn(String(warning)),
    getActiveResourcesInfo: () => handles?.resources() ?? [],
    getBuiltinModule: (name: string) => deps?.builtin?.(String(name).replace(/^node:/, '')),
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
