import { afterEach, describe, expect, test, vi } from 'vitest';
import { installNodeGlobals, nodeAbortSignalTimeout, NodeTimer, type TimerScope } from './globals.ts';
import { createRuntime } from './runtime.ts';

/** A browser-like scope over vitest's fake timers: numeric ids, no unref, no setImmediate, no process. */
function browserScope() {
  const listeners: Array<(e: PromiseRejectionEvent) => void> = [];
  const handles = new Map<number, ReturnType<typeof setTimeout>>();
  let next = 1;
  const number = (h: ReturnType<typeof setTimeout>) => (handles.set(next, h), next++);
  const scope = {
    setTimeout: (fn: () => void, ms?: number) => number(setTimeout(fn, ms)),
    clearTimeout: (id?: number) => clearTimeout(handles.get(id ?? 0)),
    setInterval: (fn: () => void, ms?: number) => number(setInterval(fn, ms)),
    clearInterval: (id?: number) => clearInterval(handles.get(id ?? 0)),
    addEventListener: (_type: 'unhandledrejection', fn: (e: PromiseRejectionEvent) => void) => void listeners.push(fn),
  } as TimerScope & Record<string, any>;
  installNodeGlobals(scope);
  // After installing, the timers are Node's: typed loosely here, as a learner's code sees them.
  return {
    scope: scope as unknown as Record<string, any>,
    reject: (reason: unknown) => {
      for (const l of listeners) l({ reason, promise: Promise.resolve(), preventDefault: () => {} } as never);
    },
  };
}

afterEach(() => vi.useRealTimers());

describe('Node globals for a Web Worker', () => {
  test('timers return Node-like handles: unref() works and is visible, clearTimeout takes the handle or its number', () => {
    vi.useFakeTimers();
    const { scope } = browserScope();
    const fired: string[] = [];
    const a: NodeTimer = scope.setTimeout(() => fired.push('a'), 10) as NodeTimer;
    expect(a).toBeInstanceOf(NodeTimer);
    expect(a.unref()).toBe(a);
    expect(a.hasRef()).toBe(false);
    const b: NodeTimer = scope.setTimeout(() => fired.push('b'), 10);
    scope.clearTimeout(Number(b));
    const c: NodeTimer = scope.setTimeout((x: string) => fired.push(x), 10, 'c');
    scope.clearTimeout(c);
    vi.advanceTimersByTime(20);
    expect(fired).toEqual(['a']);
  });

  test('refresh() restarts a timer; intervals repeat until cleared; setImmediate runs soon', () => {
    vi.useFakeTimers();
    const { scope } = browserScope();
    const fired: string[] = [];
    const t = scope.setTimeout(() => fired.push('t'), 100) as NodeTimer;
    vi.advanceTimersByTime(60);
    t.refresh();
    vi.advanceTimersByTime(60);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(50);
    expect(fired).toEqual(['t']);
    const i = scope.setInterval(() => fired.push('i'), 10);
    vi.advanceTimersByTime(35);
    scope.clearInterval(i);
    vi.advanceTimersByTime(50);
    scope.setImmediate(() => fired.push('now'));
    vi.advanceTimersByTime(1);
    expect(fired).toEqual(['t', 'i', 'i', 'i', 'now']);
  });

  test('a callback that is not a function throws, as in Node', () => {
    const { scope } = browserScope();
    expect(() => scope.setTimeout('alert(1)', 10)).toThrow(TypeError);
  });

  test("process.on('unhandledRejection') gets the worker's unhandled rejections, and can be swapped", () => {
    const { scope, reject } = browserScope();
    const seen: unknown[] = [];
    const mine = (r: unknown) => seen.push(`mine ${String(r)}`);
    scope.process.on('unhandledRejection', mine);
    reject('x');
    const saved = scope.process.listeners('unhandledRejection');
    scope.process.removeAllListeners('unhandledRejection');
    reject('ignored');
    for (const l of saved) scope.process.on('unhandledRejection', l);
    scope.process.off('unhandledRejection', mine);
    reject('gone');
    expect(seen).toEqual(['mine x']);
  });
});

describe("Node's AbortSignal.timeout", () => {
  const timeout = nodeAbortSignalTimeout((fn, ms) => setTimeout(fn, ms));

  test('refuses what Node refuses, with its codes', () => {
    for (const [delay, code] of [
      [12.5, 'ERR_OUT_OF_RANGE'],
      [-1, 'ERR_OUT_OF_RANGE'],
      [2 ** 32, 'ERR_OUT_OF_RANGE'],
      ['5', 'ERR_INVALID_ARG_TYPE'],
    ] as const) {
      expect(() => timeout(delay), String(delay)).toThrow(expect.objectContaining({ code }));
    }
  });

  test('aborts with a TimeoutError from a timer callback, so microtasks wait for every listener', async () => {
    const signal = timeout(5);
    const combined = AbortSignal.any([new AbortController().signal, signal]);
    const seen: string[] = [];
    signal.addEventListener('abort', () => {
      seen.push(`own ${(signal.reason as DOMException).name}`);
      queueMicrotask(() => seen.push(`microtask sees combined aborted: ${combined.aborted}`));
    });
    combined.addEventListener('abort', () => seen.push('combined'));
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual(['own TimeoutError', 'combined', 'microtask sees combined aborted: true']);
  });

  test('a delay past 2^31−1 ms fires after about 1 ms, as in Node', async () => {
    const signal = timeout(2 ** 32 - 1);
    await new Promise((r) => setTimeout(r, 20));
    expect(signal.aborted).toBe(true);
  });
});

describe('what keeps the page\'s "process" alive', () => {
  test('a live ref’d timer counts, as process.getActiveResourcesInfo() counts it in Node; cleared, fired or unref’d ones do not', async () => {
    const rt = createRuntime();
    const scope = { setTimeout, clearTimeout, setInterval, clearInterval } as unknown as Record<string, any>;
    installNodeGlobals(scope as TimerScope & Record<string, unknown>, { rt });
    const timeouts = () => (scope.process.getActiveResourcesInfo() as string[]).filter((r) => r === 'Timeout').length;
    const a: NodeTimer = scope.setTimeout(() => {}, 60_000);
    const b: NodeTimer = scope.setTimeout(() => {}, 60_000);
    const c: NodeTimer = scope.setInterval(() => {}, 60_000);
    const fired: NodeTimer = scope.setTimeout(() => {}, 1);
    expect(timeouts()).toBe(4);
    scope.clearTimeout(a);
    scope.clearInterval(c);
    b.unref();
    await new Promise((r) => setTimeout(r, 20));
    expect(timeouts(), 'after clearing, unref() and firing').toBe(0);
    b.ref();
    expect(rt.handles.refCount()).toBe(1);
    fired.refresh();
    expect(timeouts(), 'a refreshed timeout is live again').toBe(2);
    scope.clearTimeout(b);
    scope.clearTimeout(fired);
    const immediate = scope.setImmediate(() => {});
    expect(scope.process.getActiveResourcesInfo()).toEqual(['Immediate']);
    scope.clearImmediate(immediate);
    expect(rt.handles.refCount()).toBe(0);
  });

  test('setImmediate runs one macrotask later, not clamped like a zero timeout, and clearImmediate stops it', async () => {
    const rt = createRuntime();
    const scope = { setTimeout, clearTimeout, setInterval, clearInterval } as unknown as Record<string, any>;
    installNodeGlobals(scope as TimerScope & Record<string, unknown>, { rt });
    const seen: string[] = [];
    scope.setImmediate((x: string) => seen.push(x), 'ran');
    scope.clearImmediate(scope.setImmediate(() => seen.push('cleared')));
    queueMicrotask(() => seen.push('microtask first'));
    await new Promise((r) => setTimeout(r, 10));
    expect(seen).toEqual(['microtask first', 'ran']);
  });
});
