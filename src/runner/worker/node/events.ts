/**
 * node:events for the page: the npm `events` package (Node's EventEmitter ported to browsers, 3.3),
 * with what Node's module has and the port lacks, as Node has it: once() that an AbortSignal
 * cancels, on() (an async iterator of events), errorMonitor, captureRejectionSymbol,
 * setMaxListeners/getMaxListeners that take EventTargets too, getEventListeners and
 * addAbortListener; the EventEmitter statics are the same functions (but addAbortListener, see the
 * end), as in Node. The package is
 * imported by its file, so that Node (the unit tests) loads the package the worker runs, not its own
 * built-in `events`; the page's http classes extend this same EventEmitter.
 * Not covered: the `captureRejections` option (the port's constructor takes no options), and
 * getEventListeners() of an EventTarget (a browser cannot list them; it says so).
 */
import NpmEventEmitter from 'events/events.js';
import { nodeError, received } from './node-errors.ts';

/** Node's AbortError (an Error, not a DOMException). */
export class AbortError extends Error {
  code = 'ABORT_ERR';
  constructor(message = 'The operation was aborted', options?: ErrorOptions) {
    super(message, options);
    this.name = 'AbortError';
  }
}

export const EventEmitter = NpmEventEmitter;
export const errorMonitor: unique symbol = Symbol('events.errorMonitor');
export const captureRejectionSymbol: unique symbol = Symbol.for('nodejs.rejection') as never;
/** %AsyncIteratorPrototype%, which the iterators of on() inherit from, as Node's do. */
const asyncIteratorPrototype: object = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);
const dispose: symbol = (Symbol as { dispose?: symbol }).dispose ?? Symbol.for('nodejs.dispose');

type Listener = (...args: unknown[]) => void;
type Emitter = NodeJS.EventEmitter;
interface Target {
  addEventListener(name: string, fn: Listener, opts?: { once?: boolean }): void;
  removeEventListener(name: string, fn: Listener): void;
}

// errorMonitor: Node calls its listeners before any 'error' listener (and before an unhandled throw).
const npmEmit = NpmEventEmitter.prototype.emit;
NpmEventEmitter.prototype.emit = function emit(this: Emitter & { _events?: Record<PropertyKey, unknown> }, type: string | symbol, ...args: unknown[]) {
  if (type === 'error' && this._events?.[errorMonitor] !== undefined) npmEmit.call(this, errorMonitor, ...args);
  return npmEmit.call(this, type, ...args);
};

const argType = (name: string, expected: string, value: unknown) => {
  const kind = name.includes('.') ? 'property' : 'argument';
  return nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${name}" ${kind} must be ${expected}. Received ${received(value)}`);
};
const isTarget = (x: unknown): x is Target => typeof (x as Target | null)?.addEventListener === 'function' && typeof (x as Emitter).on !== 'function';

function validateOptions(options: unknown): { signal?: AbortSignal } & Record<string, unknown> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) throw argType('options', 'of type object', options);
  const { signal } = options as { signal?: unknown };
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
    throw argType('options.signal', 'an instance of AbortSignal', signal);
  }
  return options as { signal?: AbortSignal };
}

function listen(emitter: unknown, name: string | symbol, fn: Listener, once: boolean): void {
  if (typeof (emitter as Emitter).on === 'function') {
    if (once) (emitter as Emitter).once(name, fn);
    else (emitter as Emitter).on(name, fn);
  } else if (isTarget(emitter)) emitter.addEventListener(String(name), fn, { once });
  else throw argType('emitter', 'an instance of EventEmitter or EventTarget', emitter);
}
function unlisten(emitter: unknown, name: string | symbol, fn: Listener): void {
  if (typeof (emitter as Emitter).removeListener === 'function') (emitter as Emitter).removeListener(name, fn);
  else if (isTarget(emitter)) emitter.removeEventListener(String(name), fn);
}

/** Node's events.once: the next `name` event's arguments; rejects on 'error', or with an AbortError when `signal` aborts. */
export async function once(emitter: unknown, name: string | symbol, options: { signal?: AbortSignal } = {}): Promise<unknown[]> {
  const { signal } = validateOptions(options);
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
  return new Promise((resolve, reject) => {
    const onError = (err: unknown) => {
      unlisten(emitter, name, resolver);
      signal?.removeEventListener('abort', onAbort);
      reject(err);
    };
    const resolver = (...args: unknown[]) => {
      if (typeof (emitter as Emitter).removeListener === 'function') (emitter as Emitter).removeListener('error', onError);
      signal?.removeEventListener('abort', onAbort);
      resolve(args);
    };
    const onAbort = () => {
      unlisten(emitter, name, resolver);
      unlisten(emitter, 'error', onError);
      reject(new AbortError(undefined, { cause: signal?.reason }));
    };
    listen(emitter, name, resolver, true);
    // EventTargets have no 'error' semantics: only an EventEmitter's 'error' rejects.
    if (name !== 'error' && typeof (emitter as Emitter).once === 'function') (emitter as Emitter).once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface OnOptions {
  signal?: AbortSignal;
  /** Events that end the iteration. */
  close?: Array<string | symbol>;
}

/** Node's events.on: an async iterator of every `name` event's arguments, until 'error', a close event, an abort or return(). */
export function on(emitter: unknown, name: string | symbol, options: OnOptions = {}): AsyncIterableIterator<unknown[]> {
  const { signal } = validateOptions(options);
  if (signal?.aborted) throw new AbortError(undefined, { cause: signal.reason });
  const events: unknown[][] = [];
  const waiting: Array<{ resolve(r: IteratorResult<unknown[]>): void; reject(e: unknown): void }> = [];
  const added: Array<[string | symbol, Listener]> = [];
  let error: unknown = null;
  let finished = false;
  const add = (event: string | symbol, fn: Listener) => {
    listen(emitter, event, fn, false);
    added.push([event, fn]);
  };
  const close = (): Promise<IteratorResult<unknown[]>> => {
    signal?.removeEventListener('abort', onAbort);
    for (const [event, fn] of added.splice(0)) unlisten(emitter, event, fn);
    finished = true;
    for (const w of waiting.splice(0)) w.resolve({ value: undefined, done: true });
    return Promise.resolve({ value: undefined, done: true });
  };
  const fail = (err: unknown) => {
    const w = waiting.shift();
    if (w) w.reject(err);
    else error = err;
    void close();
  };
  const onAbort = () => fail(new AbortError(undefined, { cause: signal?.reason }));
  const iterator = Object.setPrototypeOf(
    {
      next(): Promise<IteratorResult<unknown[]>> {
        const value = events.shift();
        if (value) return Promise.resolve({ value, done: false });
        if (error) {
          const p = Promise.reject(error);
          error = null;
          return p;
        }
        if (finished) return close();
        return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      },
      return: close,
      throw(err: unknown): void {
        if (!(err instanceof Error)) throw argType('EventEmitter.AsyncIterator', 'an instance of Error', err);
        fail(err);
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    },
    asyncIteratorPrototype,
  ) as AsyncIterableIterator<unknown[]>;
  add(name, (...args: unknown[]) => {
    const w = waiting.shift();
    if (w) w.resolve({ value: args, done: false });
    else events.push(args);
  });
  if (name !== 'error' && typeof (emitter as Emitter).on === 'function') add('error', fail);
  for (const event of options.close ?? []) add(event, () => void close());
  signal?.addEventListener('abort', onAbort, { once: true });
  return iterator;
}

/** EventTargets' limits (a browser never warns about them, but getMaxListeners reads them back). */
const targetLimits = new WeakMap<object, number>();

/** Node's events.setMaxListeners: the default for every emitter, or the limit of the emitters and EventTargets given. */
export function setMaxListeners(n: number = NpmEventEmitter.defaultMaxListeners, ...targets: unknown[]): void {
  if (typeof n !== 'number') throw argType('setMaxListeners', 'of type number', n);
  if (n < 0 || Number.isNaN(n))
    throw nodeError(RangeError, 'ERR_OUT_OF_RANGE', `The value of "setMaxListeners" is out of range. It must be >= 0. Received ${n}`);
  if (targets.length === 0) NpmEventEmitter.defaultMaxListeners = n;
  for (const target of targets) {
    if (isTarget(target)) targetLimits.set(target, n);
    else if (typeof (target as Emitter | null)?.setMaxListeners === 'function') (target as Emitter).setMaxListeners(n);
    else throw argType('eventTargets', 'an instance of EventEmitter or EventTarget', target);
  }
}

/** Node's events.getMaxListeners. */
export function getMaxListeners(target: unknown): number {
  if (typeof (target as Emitter | null)?.getMaxListeners === 'function') return (target as Emitter).getMaxListeners();
  if (isTarget(target)) return targetLimits.get(target) ?? NpmEventEmitter.defaultMaxListeners;
  throw argType('emitter', 'an instance of EventEmitter or EventTarget', target);
}

/** Node's events.getEventListeners, for emitters: a browser's EventTarget cannot list its listeners. */
export function getEventListeners(target: unknown, name: string | symbol): Listener[] {
  if (typeof (target as Emitter | null)?.listeners === 'function') return (target as Emitter).listeners(name) as Listener[];
  if (isTarget(target)) {
    throw nodeError(
      Error,
      'ERR_NOT_SUPPORTED',
      'getEventListeners() of an EventTarget is not supported in the page (a browser cannot list them): grade with npm start or npm run check',
    );
  }
  throw argType('emitter', 'an instance of EventEmitter or EventTarget', target);
}

/** Node's events.addAbortListener: `listener` once on abort (in a microtask if already aborted); the result removes it when disposed. */
export function addAbortListener(signal: AbortSignal, listener: () => void): Record<symbol, () => void> {
  if (signal === null || typeof signal !== 'object' || !('aborted' in signal)) throw argType('signal', 'an instance of AbortSignal', signal);
  if (typeof listener !== 'function') throw argType('listener', 'of type function', listener);
  let remove: (() => void) | undefined;
  if (signal.aborted) queueMicrotask(() => listener());
  else {
    signal.addEventListener('abort', listener, { once: true });
    remove = () => signal.removeEventListener('abort', listener);
  }
  return Object.assign(Object.create(null) as Record<symbol, () => void>, { [dispose]: () => remove?.() });
}

// As in Node, the EventEmitter statics are the module's functions. Not addAbortListener: readable-stream
// takes `require('events').addAbortListener` when there is one, and disposes of it with its own
// symbol where the engine has no Symbol.dispose.
Object.assign(NpmEventEmitter, {
  once,
  on,
  errorMonitor,
  captureRejectionSymbol,
  captureRejections: false,
  setMaxListeners,
  getMaxListeners,
  getEventListeners,
});

/** The module code imports as node:events. */
export const eventsModule = {
  EventEmitter,
  once,
  on,
  errorMonitor,
  captureRejectionSymbol,
  getEventListeners,
  getMaxListeners,
  setMaxListeners,
  addAbortListener,
  listenerCount: NpmEventEmitter.listenerCount,
  default: EventEmitter,
};
