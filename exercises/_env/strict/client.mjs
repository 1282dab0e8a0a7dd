// @ts-check
// The tests' end of strict grading: the generated src/<file> modules call `learnerModule` to get
// the learner's exports as stand-ins that forward every call to the learner's process.
import { appendFileSync } from 'node:fs';
import { openChannel } from './channel.mjs';
import { createMembrane } from './membrane.mjs';
import { createTimers } from './timers.mjs';

const SOCKET = process.env.GRADER_STRICT_SOCKET || '.channel/tests.sock';
const VIOLATIONS = process.env.GRADER_STRICT_VIOLATIONS || 'grader-strict-violations.jsonl';

/** @typedef {(fn: Function, self: unknown, args: unknown[]) => unknown} Invoker */

/** @type {import('./membrane.mjs').Membrane | undefined} */
let membrane;
/** @type {import('./channel.mjs').Channel | undefined} */
let channel;
/** @type {Invoker} */
let invoker = (fn, self, args) => Reflect.apply(fn, self, args);

/** @returns {import('./membrane.mjs').Membrane} */
function connect() {
  if (membrane) return membrane;
  // Unreferenced: like the tests' own code, the channel alone never keeps a process running.
  channel = openChannel(
    SOCKET,
    {
      message: (msg) => /** @type {import('./membrane.mjs').Membrane} */ (membrane).receive(msg),
      closed: (why, peer) => {
        if (peer) learnerLeft(why);
        /** @type {import('./membrane.mjs').Membrane} */ (membrane).ended(why);
      },
      bad: (why) => /** @type {import('./membrane.mjs').Membrane} */ (membrane).bad(why),
    },
    { keepAlive: false },
  );
  const served = testsGlobals((fn, self, args) => invoker(fn, self, args));
  membrane = createMembrane({
    send: channel.send,
    waitUntil: channel.waitUntil,
    guard: true,
    // Calls made by the learner's code run through the src/ module's trampoline, so a suite that
    // looks at who called a global (by stack) sees the learner's file, as in one process.
    invoke: (fn, self, args) => invoker(fn, self, args),
    // The first violation also ends the channel, which fails the tests that need it.
    onViolation: (why) => record({ why: String(why).slice(0, 500) }),
    close: () => channel?.close(),
    // Emitted here as the tests' own: a suite's listener, or vitest's, hears it.
    onUnhandled: (reason) => {
      process.emit(
        'unhandledRejection',
        reason,
        Promise.reject(reason).catch(() => undefined),
      );
    },
    globals: served.globals,
    primitive: served.primitive,
  });
  return membrane;
}

/**
 * What the tests' end serves of its own globals to the learner's process, read at each call: a suite
 * that replaces one of them sees the learner's calls. The timers hand out handles (timers.mjs).
 * @param {Invoker} invoke
 */
export function testsGlobals(invoke) {
  const timers = createTimers(invoke);
  /** @type {Record<string, () => [Function, unknown]>} */
  const globals = {
    'Math.random': () => [Math.random, Math],
    'Date.now': () => [Date.now, Date],
    'performance.now': () => [performance.now, performance],
    'performance.timeOrigin': () => [() => performance.timeOrigin, undefined],
    fetch: () => [globalThis.fetch, globalThis],
    ...timers.globals,
  };
  return { globals, primitive: timers.primitive };
}

/** One line of what strict grading noticed, for the grader's gradebook (best effort). @param {{ why: string } | { left: string }} entry */
function record(entry) {
  try {
    appendFileSync(VIOLATIONS, JSON.stringify(entry) + '\n');
  } catch {
    // nothing else to tell it with
  }
}

/**
 * The learner's process ended the channel while this process still had it: it exited, crashed or
 * was killed (the grader reads the reason from how the process ended).
 */
const learnerLeft = (/** @type {unknown} */ why) => record({ left: String(why).slice(0, 200) });

/**
 * The learner's module `file`, loaded in the learner's process (its exports, read through the channel).
 * @param {string} file @param {Invoker} [trampoline] how the learner's calls of the tests' functions run
 */
export function learnerModule(file, trampoline) {
  if (trampoline) invoker = trampoline;
  const m = connect();
  // Loading is the one wait the process must stay alive for (a child process importing this module).
  const ch = /** @type {import('./channel.mjs').Channel} */ (channel);
  ch.ref();
  const exports = m.request({ t: 'load', file });
  return Promise.resolve(exports).finally(() => ch.unref());
}
