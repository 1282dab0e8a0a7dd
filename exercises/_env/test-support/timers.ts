// Shared by the hidden suites whose rule is about the process (fan-out F10, graceful-shutdown G8,
// hedged-fetch H11): once the learner's calls have settled, no timer of theirs may keep it alive.
// Where the runtime has async_hooks (Node, and the page's Node), every Timeout made while the watch is
// on is followed from its creation, whoever made it and however (a global setTimeout, or one imported
// from node:timers or node:timers/promises); timers already pending before do not count, so one that
// fires meanwhile cannot hide a leak. Elsewhere the global timer functions are wrapped while the watch
// is on (the page's node:timers reads them at call time). Either way a fired or cleared timer, an
// unref()'d one and AbortSignal.timeout (unref'd in Node) do not count; a live 60 s timer does.

type Handle = ReturnType<typeof setTimeout>;
type TimerLike = { hasRef?: () => boolean; _destroyed?: boolean; _idleTimeout?: number };

export interface TimerWatch {
  /** The delays (ms) of the timers made since the watch began, and before seal(), that still hold the process. */
  live(): number[];
  /** No timer made from now on is counted (the test's own waits). */
  seal(): void;
  /** Stops watching; live() still tells which of the timers seen are left. */
  stop(): void;
}

export interface WatchOptions {
  /** Count only timers whose creation stack passes through this path (the learner's folder). */
  madeBy?: string;
}

// Taken without an import, so that the suites also load in a browser's Web Worker.
const asyncHooks = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.('node:async_hooks') as
  | typeof import('node:async_hooks')
  | undefined;

/** Whether a timer still keeps the process alive: not fired or cleared (Node's `_destroyed` says so at once), and ref'd. */
const holdsProcess = (t: TimerLike) => t._destroyed !== true && (typeof t.hasRef === 'function' ? t.hasRef() : true);

/** Whether the code that is making a timer now runs through `path` (below the runtime's own timer frames). */
function calledFrom(path: string): boolean {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 40;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  return stack.includes(path);
}

export function watchTimers(options: WatchOptions = {}): TimerWatch {
  const counts = () => options.madeBy === undefined || calledFrom(options.madeBy);
  return hookedTimers(counts) ?? wrappedTimers(counts);
}

/** Through async_hooks; undefined where the runtime has none, or does not report a timer's start and end to them. */
function hookedTimers(counts: () => boolean): TimerWatch | undefined {
  const made: TimerLike[] = [];
  let probe: TimerLike | undefined;
  let probing = true;
  let sealed = false;
  let hook: { disable(): unknown } | undefined;
  try {
    hook = asyncHooks
      ?.createHook({
        init(_id, type, _trigger, resource) {
          if (type !== 'Timeout' || sealed) return;
          if (probing) probe = resource as TimerLike;
          else if (counts()) made.push(resource as TimerLike);
        },
      })
      .enable();
    const t = setTimeout(() => {}, 10_000);
    const seen = probe !== undefined && holdsProcess(probe);
    clearTimeout(t);
    probing = false;
    if (seen && !holdsProcess(probe!)) {
      const enabled = hook!;
      return {
        live: () => made.filter(holdsProcess).map((x) => x._idleTimeout ?? 0),
        seal: () => void (sealed = true),
        stop: () => void enabled.disable(),
      };
    }
  } catch {
    // a runtime whose async_hooks throw: wrap the globals instead
  }
  hook?.disable();
  return undefined;
}

/** By wrapping the global timer functions until stop(). */
function wrappedTimers(counts: () => boolean): TimerWatch {
  // biome-ignore lint/suspicious/noExplicitAny: the global timer functions, replaced until stop() and put back
  const g = globalThis as any;
  const real = { setTimeout: g.setTimeout, clearTimeout: g.clearTimeout, setInterval: g.setInterval, clearInterval: g.clearInterval };
  const live = new Map<unknown, { h: Handle; ms: number }>(); // by the id clearTimeout may be given: the handle, or its number
  const key = (h: unknown) => (h !== null && typeof h === 'object' && Symbol.toPrimitive in h ? Number(h) : h);
  let sealed = false;
  const follow = (h: Handle, ms: unknown) => {
    if (!sealed && counts()) live.set(key(h), { h, ms: Number(ms) || 0 });
  };
  g.setTimeout = function (this: unknown, fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const h: Handle = real.setTimeout((...a: unknown[]) => (live.delete(key(h)), fn(...a)), ms, ...args);
    follow(h, ms);
    return h;
  };
  g.setInterval = function (this: unknown, fn: (...a: unknown[]) => void, ms?: number, ...args: unknown[]) {
    const h: Handle = real.setInterval(fn, ms, ...args);
    follow(h, ms);
    return h;
  };
  g.clearTimeout = (h: unknown) => (live.delete(key(h)), real.clearTimeout(h));
  g.clearInterval = (h: unknown) => (live.delete(key(h)), real.clearInterval(h));
  return {
    live: () => [...live.values()].filter(({ h }) => holdsProcess(h as TimerLike)).map(({ ms }) => ms),
    seal: () => void (sealed = true),
    stop: () => Object.assign(g, real),
  };
}
