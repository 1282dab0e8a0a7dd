// @ts-check
// The requests and answers of the strict grading protocol (./README.md, "Messages"): a request waits
// for its reply synchronously (channel.mjs's waitUntil handles what arrives meanwhile), an incoming
// request is served against the objects this end handed out, and every other message is dispatched.
// The guarded end (the tests') answers only for its own objects (serve.mjs) and closes on its first
// violation, after which it handles nothing more.
import { LIMIT_ERROR, MAX_MESSAGE, nameOf, NOTIFIED, ProtocolViolation } from './wire.mjs';
import { isData } from './codec.mjs';
import { isBridgeMessage } from './http-bridge.mjs';
import { createServer } from './serve.mjs';

/** @typedef {import('./wire.mjs').Message} Message */
/** @typedef {import('./wire.mjs').Request} Request */
/** @typedef {import('./wire.mjs').Wire} Wire */
/** @typedef {import('./wire.mjs').Untrusted} Untrusted */

/**
 * @param {{
 *   send(msg: Message): void,
 *   waitUntil(done: () => boolean): void,
 *   guard: boolean,
 *   invoke: (fn: Function, self: unknown, args: unknown[]) => unknown,
 *   onLoad?: (file: string) => unknown,
 *   globals?: Record<string, () => [Function, unknown]>,
 *   onUnhandled?: (reason: unknown) => void,
 *   handles: import('./handles.mjs').Handles,
 *   codec: import('./codec.mjs').Codec,
 *   mirrors: () => import('./mirrors.mjs').Mirrors,
 *   bridge: () => import('./http-bridge.mjs').HttpBridge,
 *   violation(why: string): Error,
 *   close?: () => void,
 * }} o mirrors, bridge: made after this (they send through it); close: ends the channel
 */
export function createRpc(o) {
  const { codec, violation } = o;
  const { encode, encodeSafely, decode, safeKey } = codec;
  const serve = createServer(o);
  /** @type {Map<number, { ok: boolean, value: unknown, wb: unknown }>} my call number -> its reply */
  const replies = new Map();
  /** My calls still waiting for their reply: a reply to any other (never made, or answered already) is a violation. */
  const waiting = new Set();
  let nextCall = 1;
  /** @type {string | undefined} why the channel closed */
  let closed;

  const closedError = () => new Error(`the learner's code is no longer reachable: ${closed}`);

  /** @param {Message} msg */
  function post(msg) {
    if (closed) return;
    let text;
    try {
      text = JSON.stringify(msg);
    } catch (error) {
      throw new RangeError(`a value too large or too deep for the grading protocol: ${/** @type {Error} */ (error).message}`);
    }
    if (text.length > MAX_MESSAGE)
      throw new RangeError(`a value too large for the grading protocol (${(text.length / 1048576).toFixed(1)} MB; the limit is 8 MB)`);
    o.send(msg);
  }

  /**
   * Sends `msg` and waits for its reply (its value, or its error thrown); `args` are the call's own
   * arguments, which the reply's write-back updates.
   * @param {Request} msg @param {unknown[]} [args]
   */
  function request(msg, args) {
    if (closed) throw closedError();
    const call = nextCall++;
    waiting.add(call);
    try {
      post({ ...msg, call });
      o.waitUntil(() => replies.has(call) || closed !== undefined);
    } finally {
      waiting.delete(call);
    }
    const reply = replies.get(call);
    if (!reply) throw closedError();
    const { ok, value, wb } = reply;
    replies.delete(call);
    if (args && wb) writeBack(args, wb);
    if (ok) return value;
    throw value;
  }

  /**
   * Arrays and plain objects cross as copies; what the callee changed in an argument it was given
   * (an in-place sort, a pushed item) is copied back when the call returns, as one process would see.
   * @param {unknown[]} args @param {unknown} wb
   */
  function writeBack(args, wb) {
    if (!wb || typeof wb !== 'object') return;
    const changed = /** @type {Untrusted} */ (wb);
    for (const key of Object.keys(changed)) {
      const target = args[Number(key)];
      const fresh = decode(changed[key]);
      if (Array.isArray(target) && Array.isArray(fresh)) target.splice(0, target.length, ...fresh);
      else if (target && typeof target === 'object' && isData(target) && fresh && typeof fresh === 'object') {
        const into = /** @type {Record<string, unknown>} */ (target);
        const from = /** @type {Record<string, unknown>} */ (fresh);
        for (const k of Object.keys(into)) if (!Object.hasOwn(from, k)) delete into[k];
        for (const k of Object.keys(from)) if (safeKey(k)) into[k] = from[k];
      }
    }
  }

  /** The copied arguments of a call that the callee changed, re-encoded (see writeBack). @param {unknown} encoded @param {unknown[]} args */
  function changedArgs(encoded, args) {
    /** @type {Record<number, Wire> | undefined} */
    let wb;
    /** @type {Untrusted[]} */ (encoded).forEach((enc, i) => {
      if (!enc || (enc.$ !== 'a' && enc.$ !== 'o')) return;
      const again = encodeSafely(args[i]);
      if (JSON.stringify(again) !== JSON.stringify(enc)) (wb ??= {})[i] = again;
    });
    return wb;
  }

  /** Serves a request of the other end and replies, with the error it threw if it threw. @param {Untrusted} msg */
  function answer(msg) {
    let value;
    /** @type {{ args: unknown[] | undefined }} */
    const seen = { args: undefined };
    try {
      value = { ok: true, value: encode(serve(msg, seen)) };
    } catch (error) {
      if (error instanceof ProtocolViolation && o.guard) shutdown(error.message);
      value = { ok: false, value: encodeSafely(error) };
    }
    const wb = seen.args ? changedArgs(msg.args, seen.args) : undefined;
    try {
      post({ t: 'reply', call: msg.call, ...value, ...(wb ? { wb } : {}) });
    } catch (error) {
      // Too large to send: the caller gets an error it can recognise instead of the value.
      const limit = new RangeError(String(/** @type {Error} */ (error)?.message ?? error));
      limit.name = LIMIT_ERROR;
      post({ t: 'reply', call: msg.call, ok: false, value: encode(limit) });
    }
  }

  /**
   * Every incoming message, in order (called by the channel, also while a call waits). Once the
   * channel is over nothing more is handled: not a call, not a reply, not a violation.
   * @param {Untrusted} msg
   */
  function receive(msg) {
    if (closed) return;
    try {
      switch (msg.t) {
        case 'reply': {
          if (!waiting.has(msg.call) || replies.has(msg.call)) throw violation('an answer to a call that was never made or was answered already');
          replies.set(msg.call, { ok: msg.ok === true, value: decode(msg.value), wb: msg.wb });
          return;
        }
        case 'settle': {
          const p = o.mirrors().takePromise(msg.id);
          if (!p) throw violation('a promise settled that was never sent');
          if (msg.ok === true) p.resolve(decode(msg.value));
          else p.reject(decode(msg.value));
          return;
        }
        case 'abort': {
          const c = o.mirrors().signal(msg.id);
          if (!c) throw violation('an abort of a signal that was never sent');
          c.abort(decode(msg.reason));
          return;
        }
        case 'unhandled':
          if (!o.onUnhandled) throw violation("an unhandled rejection sent to the learner's side");
          o.onUnhandled(decode(msg.reason));
          return;
        case 'notify': {
          // A clock read the other side made and answered itself, made here too for whoever watches.
          // Only the clocks: any other global the tests serve does something when called (fetch).
          const pick = NOTIFIED.has(msg.name) ? o.globals?.[msg.name] : undefined;
          if (!pick) throw violation(`a notice of a global the protocol does not report (${nameOf(msg.name)})`);
          const [fn, self] = pick();
          try {
            o.invoke(fn, self, []);
          } catch {
            // the value was not needed; a throwing wrapper is the suite's business
          }
          return;
        }
        case 'closed':
        case 'bad':
          // The channel's own news never comes as a line (channel.mjs): this one is the other end's.
          throw violation("a message posing as the channel's own notice");
        default:
          if (isBridgeMessage(msg)) o.bridge().receive(msg);
          else answer(msg);
      }
    } catch (error) {
      if (error instanceof ProtocolViolation && o.guard) shutdown(error.message);
      else if (msg.call !== undefined && msg.t !== 'reply') post({ t: 'reply', call: msg.call, ok: false, value: encodeSafely(error) });
    }
  }

  /** The channel said a line was not a JSON object (a violation on the guarded end). @param {string} why */
  function bad(why) {
    if (!closed && o.guard) violation(why);
  }

  /** The channel is over (`why`): every pending promise of the other end rejects, every bridged connection ends. @param {string} why */
  function shutdown(why) {
    if (closed) return;
    closed = why;
    // Nothing more is read or sent: a learner's end that keeps writing after a violation is not heard.
    o.close?.();
    o.mirrors().rejectAll(closedError);
    o.bridge().closeAll();
  }

  return {
    post,
    request,
    receive,
    bad,
    shutdown,
    /** Why the channel closed, once it has. */
    closed: () => closed,
    /** The error a use of the closed channel gets; undefined while it is open. */
    closedError: () => (closed ? closedError() : undefined),
  };
}
