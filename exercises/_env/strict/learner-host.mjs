// @ts-check
// The learner's process in strict grading: it loads the learner's modules and answers the tests'
// calls over the channel (argv[2]: the descriptor of the connection the grader handed over). It runs
// in its own confined sandbox with the learner's files only; nothing here is trusted by the tests
// (the learner may rewrite all of it).
import { readFileSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';
import { resolve } from 'node:path';
import { openChannel } from './channel.mjs';
import { createMembrane } from './membrane.mjs';
import { LOOPBACK } from './http-bridge.mjs';

// The learner's .ts files the grader already made plain JavaScript (src/grading/node/strict-strip.ts)
// load as they are, without starting Node's TypeScript compiler in this process; the others (an enum,
// a syntax error) go through it (--experimental-transform-types). An import of node:http or node:net
// turns on the loopback dialling below first: node:http is slow to load, so only a learner's code
// that uses it loads it.
/** @type {string[]} */
const plainFiles = JSON.parse(readFileSync(new URL('./plain-js.json', import.meta.url), 'utf8'));
const plain = new Set(plainFiles.map((p) => pathToFileURL(resolve('src', p)).href));
const NETWORK_MODULES = new Set(['http', 'node:http', 'net', 'node:net']);
// node:timers and node:timers/promises are the forwarded timers below (as in one process, where they
// and the globals are one), so a timer cannot hide in this process by being imported.
const TIMER_MODULES = new Map([
  ['timers', 'course-timers:timers'],
  ['node:timers', 'course-timers:timers'],
  ['timers/promises', 'course-timers:promises'],
  ['node:timers/promises', 'course-timers:promises'],
]);
/** @type {Record<string, string>} */
const TIMER_SOURCES = {
  'course-timers:timers': `const t = globalThis[Symbol.for('course.forwardedTimers')].timers;
export const { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate, clearImmediate, promises } = t;
export default t;`,
  'course-timers:promises': `const p = globalThis[Symbol.for('course.forwardedTimers')].promises;
export const { setTimeout, setImmediate, setInterval, scheduler } = p;
export default p;`,
};
nodeModule.registerHooks({
  resolve: (specifier, context, nextResolve) => {
    if (NETWORK_MODULES.has(specifier)) dialLoopbackFromTests();
    const timers = TIMER_MODULES.get(specifier);
    if (timers) return { url: timers, format: 'module', shortCircuit: true };
    return nextResolve(specifier, context);
  },
  load: (url, context, nextLoad) => {
    if (url in TIMER_SOURCES) return { format: 'module', source: TIMER_SOURCES[url], shortCircuit: true };
    return plain.has(url) ? { format: 'module', source: readFileSync(new URL(url), 'utf8'), shortCircuit: true } : nextLoad(url, context);
  },
});

/** @type {import('./membrane.mjs').Membrane} */
let membrane;
const channel = openChannel(
  Number(process.argv[2]),
  // A line that is not JSON is the tests' end's problem, never this end's to act on.
  { message: (msg) => membrane.receive(msg), closed: (why) => membrane.ended(why), bad: () => {} },
  { keepAlive: true },
);
membrane = createMembrane({
  send: channel.send,
  waitUntil: channel.waitUntil,
  guard: false,
  onLoad: (file) => {
    const url = pathToFileURL(resolve('src', file)).href;
    // The module namespace, as a plain object of its exports (classes and functions as handles).
    return import(url).then((ns) => Object.fromEntries(Object.keys(ns).map((k) => [k, ns[k]])));
  },
});

// The learner's reads of the clock, of randomness, of the network and its timers go to the tests' process,
// where the suite can watch or replace them exactly as it does when everything runs in one process
// (vitest seeds Math.random per test there). None of them can be replaced or removed here: what a rule
// measures must not depend on what this process, which the learner may rewrite, chooses to report.
/** @param {object} object @param {PropertyKey} name @param {unknown} value */
const fixed = (object, name, value) => Object.defineProperty(object, name, { value, writable: false, configurable: false, enumerable: true });
const remote =
  (/** @type {string} */ name) =>
  (/** @type {unknown[]} */ ...args) =>
    membrane.request({ t: 'global', name, args: args.map((a) => membrane.encode(a)) });
fixed(Math, 'random', remote('Math.random'));
// The clocks are read here (a round trip per read would let time pass between two reads that the
// tests expect together), on the tests' time origin, and each read is reported to the tests' process,
// where a suite that watches Date.now or performance.now sees it (after the call, in order).
const notify = (/** @type {string} */ name) => membrane.notify(name);
const localDateNow = Date.now.bind(Date);
const localPerfNow = performance.now.bind(performance);
/** @type {number | undefined} */
let shift;
fixed(Date, 'now', function now() {
  notify('Date.now');
  return localDateNow();
});
fixed(performance, 'now', function now() {
  shift ??= performance.timeOrigin - /** @type {number} */ (membrane.request({ t: 'global', name: 'performance.timeOrigin', args: [] }));
  notify('performance.now');
  return localPerfNow() + shift;
});
fixed(globalThis, 'performance', performance);
fixed(globalThis, 'Date', Date);
fixed(globalThis, 'Math', Math);
fixed(globalThis, 'fetch', remote('fetch'));
// Timers too: they run on the tests' clock, where a suite counts the timers left running.
/** @type {Record<string, (...args: unknown[]) => unknown>} */
const timers = {};
for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate']) {
  timers[name] = remote(name);
  fixed(globalThis, name, timers[name]);
}
const forwardedPromises = timersPromises(timers);
fixed(
  globalThis,
  Symbol.for('course.forwardedTimers'),
  Object.freeze({ timers: Object.freeze({ ...timers, promises: forwardedPromises }), promises: forwardedPromises }),
);
const builtin = process.getBuiltinModule;
fixed(process, 'getBuiltinModule', function getBuiltinModule(/** @type {string} */ id) {
  const forwarded = /** @type {any} */ (globalThis)[Symbol.for('course.forwardedTimers')];
  if (id === 'timers' || id === 'node:timers') return forwarded.timers;
  if (id === 'timers/promises' || id === 'node:timers/promises') return forwarded.promises;
  return builtin.call(process, id);
});

/**
 * node:timers/promises over the forwarded timers: resolves after the delay, an AbortError on abort.
 * @param {Record<string, (...args: any[]) => any>} t
 */
function timersPromises(t) {
  /** @typedef {{ signal?: AbortSignal, ref?: boolean } | null | undefined} TimerOptions */
  const abortError = (/** @type {AbortSignal} */ signal) =>
    Object.assign(new Error('The operation was aborted', { cause: signal.reason }), { name: 'AbortError', code: 'ABORT_ERR' });
  /**
   * @param {(done: () => void) => any} start @param {(handle: any) => unknown} stop
   * @param {unknown} value @param {TimerOptions} [options]
   */
  const after = (start, stop, value, options = {}) =>
    new Promise((resolve, reject) => {
      const { signal, ref = true } = options ?? {};
      if (signal?.aborted) return reject(abortError(signal));
      const onAbort = () => {
        stop(handle);
        reject(abortError(/** @type {AbortSignal} */ (signal)));
      };
      const handle = start(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      });
      if (!ref) handle?.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  /** @typedef {number | undefined} Delay */
  const promises = {
    /** @param {Delay} delay @param {unknown} [value] @param {TimerOptions} [options] */
    setTimeout: (delay, value, options) => after((done) => t.setTimeout(done, delay), t.clearTimeout, value, options),
    /** @param {unknown} [value] @param {TimerOptions} [options] */
    setImmediate: (value, options) => after((done) => t.setImmediate(done), t.clearImmediate, value, options),
    /** @param {Delay} delay @param {unknown} value */
    async *setInterval(delay, value) {
      for (;;) {
        await promises.setTimeout(delay);
        yield value;
      }
    },
    scheduler: {
      wait: (/** @type {Delay} */ delay, /** @type {TimerOptions} */ options) => promises.setTimeout(delay, undefined, options),
      yield: () => promises.setImmediate(),
    },
  };
  return Object.freeze(promises);
}
// Connections to loopback (node:http or node:net: the services' URLs are the tests' stand-in
// servers) are made from the tests' process, where one process would make them; any other goes
// nowhere (this sandbox has no network). http's agents hold their own copy of createConnection, and
// the ESM named exports (import { connect } from 'node:net') are synced to the patched functions.
let dialling = false;
function dialLoopbackFromTests() {
  if (dialling) return;
  dialling = true;
  const http = process.getBuiltinModule('node:http');
  const net = process.getBuiltinModule('node:net');
  const dialed = (/** @type {Function} */ connect) =>
    /** @this {unknown} @param {any[]} args */
    function createConnection(...args) {
      const [first, second] = args;
      const target =
        typeof first === 'object' && first !== null
          ? { host: first.host ?? 'localhost', port: first.port, path: first.path }
          : { host: typeof second === 'string' ? second : 'localhost', port: first };
      const port = Number(target.port);
      if (target.path != null || !LOOPBACK.has(String(target.host)) || !Number.isInteger(port)) return Reflect.apply(connect, this, args);
      const socket = membrane.dial(String(target.host), port);
      const onConnect = args.findIndex((a) => typeof a === 'function');
      if (onConnect > 0 && !(this instanceof http.Agent)) socket.once('connect', args[onConnect]);
      return socket;
    };
  net.connect = dialed(net.connect);
  net.createConnection = dialed(net.createConnection);
  http.Agent.prototype.createConnection = dialed(http.Agent.prototype.createConnection);
  nodeModule.syncBuiltinESMExports();
}

// A promise of the learner's code rejected with no handler: the tests' process hears of it as its
// own unhandled rejection (a suite may listen for them; vitest reports them), as in one process.
// It is heard in process.emit, which Node calls for every unhandled rejection and which cannot be
// replaced: removing this process's listeners, or adding one that swallows them, changes nothing.
// The stand-in of a promise of the tests is not the learner's: whether it is handled is the tests' business.
const emit = process.emit;
fixed(
  process,
  'emit',
  /** @this {unknown} @param {string | symbol} event @param {unknown[]} args */ function (event, ...args) {
    if (event === 'unhandledRejection' && !membrane.isMirror(args[1])) membrane.unhandled(args[0]);
    return Reflect.apply(emit, this, [event, ...args]);
  },
);
process.on('unhandledRejection', () => {}); // heard above; Node must not end this process for it
