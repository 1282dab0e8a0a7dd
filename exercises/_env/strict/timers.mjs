// @ts-check
// The learner's timers, as the tests' end serves them (client.mjs's globals). They run in the tests'
// process, on its clock, where a suite counts the timers left running; but the learner's code never
// gets the timer itself. A Node timer is a window onto the whole process: `_idlePrev` and
// `_idleNext` link it to the tests' own timers of the same duration (a suite's guard, vitest's test
// timeout), which a learner could walk to and clear, and `_onTimeout`, `_destroyed` can be written.
// So each timer the learner starts gets a handle of its own here, with a timer's methods and no
// field, and the learner's end gets that handle; only this file knows which timer it stands for.
// Passed back to clearTimeout (or as the number it converts to), the handle is that timer again.

/** @typedef {(fn: Function, self: unknown, args: unknown[]) => unknown} Invoker */

/**
 * @param {Invoker} invoke how a global of the tests runs for the learner (the src/ module's
 *   trampoline: a suite that looks at who called setTimeout, by stack, sees the learner's file)
 */
export function createTimers(invoke) {
  /** @type {WeakMap<object, unknown>} handle -> the timer the tests' setTimeout (or a suite's own) returned */
  const timerOf = new WeakMap();
  /** @type {WeakMap<object, number>} handle -> the number it converts to */
  const numberOf = new WeakMap();
  /** @type {Map<unknown, unknown>} a number or other primitive the learner holds -> the timer it clears */
  const byPrimitive = new Map();
  let nextNumber = 1;

  /** Calls the timer's own method `name`, if it has one (a suite's fake timers may lack some). @param {object} handle @param {string} name */
  const forward = (handle, name) => {
    const timer = /** @type {Record<string, unknown> | undefined} */ (timerOf.get(handle));
    const method = timer?.[name];
    return typeof method === 'function' ? Reflect.apply(method, timer, []) : undefined;
  };

  // What Node's Immediate and Timeout offer that a program uses; what they return is the handle,
  // never the timer. A handle of no timer (a method called on something else) does nothing.
  class ImmediateHandle {
    ref() {
      forward(this, 'ref');
      return this;
    }
    unref() {
      forward(this, 'unref');
      return this;
    }
    hasRef() {
      const has = forward(this, 'hasRef');
      return has === undefined ? true : Boolean(has);
    }
  }
  class TimeoutHandle extends ImmediateHandle {
    refresh() {
      forward(this, 'refresh');
      return this;
    }
    close() {
      forward(this, 'close');
      return this;
    }
    [Symbol.toPrimitive]() {
      return numberOf.get(this) ?? NaN;
    }
  }

  /**
   * setTimeout, setInterval or setImmediate for the learner: the tests' current one (a suite may
   * have replaced it) starts the timer; the learner gets a handle, and its callback runs with that
   * handle as `this`, as Node's run with the timer.
   * @param {() => Function} current @param {typeof ImmediateHandle} Handle
   */
  const start = (current, Handle) =>
    /** @param {unknown} callback @param {unknown[]} rest */
    function start(callback, ...rest) {
      const handle = new Handle();
      const run = typeof callback === 'function' ? /** @param {unknown[]} args */ (...args) => Reflect.apply(callback, handle, args) : callback;
      const timer = invoke(current(), globalThis, [run, ...rest]);
      // A suite's fake timers may hand out numbers: those are nobody's window onto anything.
      if (timer === null || (typeof timer !== 'object' && typeof timer !== 'function')) {
        byPrimitive.set(timer, timer);
        return timer;
      }
      timerOf.set(handle, timer);
      if (handle instanceof TimeoutHandle) {
        const n = nextNumber++;
        numberOf.set(handle, n);
        byPrimitive.set(n, timer);
      }
      return handle;
    };

  /**
   * clearTimeout, clearInterval or clearImmediate for the learner: it clears only timers it started
   * (a handle, or a number one converted to); anything else reaches the tests' as `undefined`.
   * @param {() => Function} current
   */
  const clear = (current) =>
    /** @param {unknown} which */
    function clear(which) {
      const timer = typeof which === 'object' && which !== null ? timerOf.get(which) : byPrimitive.get(which);
      return invoke(current(), globalThis, [timer]);
    };

  /** @type {Record<string, () => [Function, unknown]>} */
  const globals = {
    setTimeout: () => [start(() => globalThis.setTimeout, TimeoutHandle), undefined],
    setInterval: () => [start(() => globalThis.setInterval, TimeoutHandle), undefined],
    setImmediate: () => [start(() => globalThis.setImmediate, ImmediateHandle), undefined],
    clearTimeout: () => [clear(() => globalThis.clearTimeout), undefined],
    clearInterval: () => [clear(() => globalThis.clearInterval), undefined],
    clearImmediate: () => [clear(() => globalThis.clearImmediate), undefined],
  };
  return {
    /** client.mjs's globals for the six timer functions, each reading the tests' current one at each call. */
    globals,
    /** The number a handle converts to, sent with it (codec.mjs's `prim`). @param {object} obj */
    primitive: (obj) => numberOf.get(obj),
  };
}
