// @ts-check
// The membrane between the hidden tests and the learner's modules when they run in two processes
// (strict grading). Both ends run it; the tests' end is created with `guard: true` and treats
// everything the other end sends as hostile. What crosses, how and under which rules is specified
// in ./README.md. This file only joins the parts: the handle tables (handles.mjs), the codec
// (codec.mjs), the mirrors (mirrors.mjs), the RPC (rpc.mjs) and the HTTP bridge (http-bridge.mjs).
import { createCodec } from './codec.mjs';
import { createHandles } from './handles.mjs';
import { createHttpBridge } from './http-bridge.mjs';
import { createMirrors } from './mirrors.mjs';
import { createRpc } from './rpc.mjs';
import { ProtocolViolation } from './wire.mjs';

export { LIMIT_ERROR, ProtocolViolation } from './wire.mjs';

/**
 * @typedef {{
 *   send(msg: import('./wire.mjs').Message): void,
 *   waitUntil(done: () => boolean): void,
 *   guard: boolean,
 *   invoke?: (fn: Function, self: unknown, args: unknown[]) => unknown,
 *   onViolation?: (why: string) => void,
 *   onLoad?: (file: string) => unknown,
 *   globals?: Record<string, () => [Function, unknown]>,
 *   onUnhandled?: (reason: unknown) => void,
 *   close?: () => void,
 *   primitive?: (obj: object) => number | undefined,
 * }} MembraneOptions
 * send, waitUntil: the channel (channel.mjs); guard: this is the tests' end; invoke: how a call of
 * the other end runs a function of this end; onViolation: told of each violation (the tests' end
 * records it); onLoad: the learner's end loads a module; globals: the tests' end answers the
 * learner's reads of these (the clock, randomness, fetch, timers); onUnhandled: the tests' end
 * hears the learner's unhandled rejections; close: ends the channel (the tests' end does on its
 * first violation); primitive: the number an object of this end converts to (timers.mjs).
 */

/** @param {MembraneOptions} o */
export function createMembrane(o) {
  const invoke = o.invoke ?? ((fn, self, args) => Reflect.apply(fn, self, args));
  /**
   * Something an honest end never sends. On the guarded end the first one is recorded and ends the
   * channel at once, wherever it was found (a learner's end that sent one may send thousands, each
   * a line of the gradebook); later ones, and any after the channel ended, are not recorded.
   * @param {string} why
   */
  const violation = (why) => {
    const error = new ProtocolViolation(`grading protocol: ${why}`);
    if (o.guard && !rpc.closed()) {
      o.onViolation?.(why);
      rpc.shutdown(error.message);
    } else if (!o.guard) o.onViolation?.(why);
    return error;
  };
  let limitHeard = false;
  /** A value over the size limit, from the learner's end: recorded once, nothing ended. @param {string} why */
  const onLimit = (why) => {
    if (limitHeard || rpc.closed()) return;
    limitHeard = true;
    o.onViolation?.(why);
  };
  const handles = createHandles(violation);
  const codec = createCodec({
    guard: o.guard,
    handles,
    violation,
    post: (msg) => rpc.post(msg),
    mirror: (x, depth) => mirrors.make(x, depth),
    ...(o.primitive ? { primitive: o.primitive } : {}),
  });
  const rpc = createRpc({ ...o, invoke, handles, codec, violation, mirrors: () => mirrors, bridge: () => httpBridge });
  const mirrors = createMirrors({
    guard: o.guard,
    handles,
    codec,
    request: rpc.request,
    violation,
    onLimit,
    closedError: rpc.closedError,
    standIn: (srv) => httpBridge.standIn(srv),
  });
  // The learner's http.Servers: a stand-in server on the tests' side, connections across (http-bridge.mjs).
  const httpBridge = createHttpBridge({ send: rpc.post, guard: o.guard, violation, lookup: (id) => handles.mine(id, 'a server') });

  return {
    /** Every incoming message, in order (called by the channel, also while a call waits). */
    receive: rpc.receive,
    /** The channel ended (channel.mjs's `closed`): everything of the other end is gone. @param {string} why */
    ended: (why) => rpc.shutdown(why),
    /** The channel read a line that is not a JSON object (channel.mjs's `bad`). */
    bad: rpc.bad,
    /** Sends a request and waits for its answer (see rpc.mjs). */
    request: rpc.request,
    /** @param {string} name */
    notify: (name) => rpc.post({ t: 'notify', name }),
    /** @param {unknown} reason */
    unhandled: (reason) => rpc.post({ t: 'unhandled', reason: codec.encodeSafely(reason) }),
    /** A stand-in this end made for something of the other end (a promise, a function…). */
    isMirror: handles.isMirror,
    encode: codec.encode,
    decode: codec.decode,
    shutdown: rpc.shutdown,
    /** The learner's end: a socket to a loopback port, connected from the tests' process (http-bridge.mjs). */
    dial: httpBridge.dial,
    get closed() {
      return rpc.closed();
    },
  };
}

/** @typedef {ReturnType<typeof createMembrane>} Membrane */
