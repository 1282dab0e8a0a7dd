// @ts-check
// What crosses the strict grading channel: the shapes of the messages and of the values inside them,
// the limits, and the names the tests' end never touches. The specification is ./README.md; the
// codec (codec.mjs) writes and reads these shapes, the mirrors (mirrors.mjs) stand in for handles,
// the RPC (rpc.mjs) carries the messages.

/** How deep a value is copied before the rest crosses as a handle (decoding allows twice this). */
export const MAX_DEPTH = 64;

/** The longest message a membrane sends (the channel itself refuses lines over 16 MB). */
export const MAX_MESSAGE = 8 * 1024 * 1024;

/** Names the guarded end never reads, writes or decodes, whoever owns the object. */
export const BLOCKED_KEYS = new Set([
  'constructor',
  '__proto__',
  'prototype',
  'caller',
  'callee',
  'arguments',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
  // vitest's equality calls this on the *actual* value: a learner's object must never answer it.
  'asymmetricMatch',
]);

/**
 * The guarded end never reads, writes, deletes or lists a name starting with `_`, on any object it
 * handed out: Node's own objects keep their internals there (a timer's `_idlePrev` leads to the
 * other timers of the tests' process, `_onTimeout` is their callback), and no suite hands the
 * learner's code an object it must reach that way. Values the learner's end sends keep such names.
 * @param {string} key
 */
export const internalKey = (key) => key.startsWith('_');

/**
 * The clock reads the learner's end reports with `notify` (it reads them itself): the only names a
 * notice may carry. Anything else the tests serve (fetch, the timers) does something when called.
 */
export const NOTIFIED = new Set(['Date.now', 'performance.now']);

/**
 * A string the other end chose, for a violation's text (which reaches the gradebook): itself when
 * it is a short plain name, otherwise a fixed word.
 * @param {unknown} v
 */
export const nameOf = (v) => (typeof v === 'string' && /^[\w.$-]{1,40}$/.test(v) ? v : 'unnamed');

/** The language's own prototypes: what they define is never read across, nor sent as a method. */
export const INTRINSIC_PROTOS = new Set([
  Object.prototype,
  Function.prototype,
  Array.prototype,
  Error.prototype,
  Promise.prototype,
  Map.prototype,
  Set.prototype,
]);

/** The name of the error that replaces a value too large to cross (the tests' side reports it). */
export const LIMIT_ERROR = 'GradingProtocolLimit';

/** Something the other end sent that an honest end never does; the guarded end closes on it. */
export class ProtocolViolation extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'ProtocolViolation';
  }
}

/**
 * A value as it crosses: JSON primitives as themselves, everything else tagged by `$`.
 * Copies: u (undefined), n (NaN, ±Infinity, -0), big, sym, h (Headers), url, usp, d (Date),
 * ab (ArrayBuffer), u8 (Uint8Array), a (array), map, set, o (plain data object), e (error).
 * Handles, by the sender's id: f (function), p (promise), sig (abort signal), res and req (a copy
 * whose body is read through the handle), r (object with behaviour), srv (the learner's http.Server).
 * back: one of the receiver's own handles, returned.
 * @typedef {null | boolean | string | number
 *   | { $: 'u' }
 *   | { $: 'n', v: string }
 *   | { $: 'big' | 'sym' | 'url' | 'usp' | 'ab' | 'u8', v: string }
 *   | { $: 'd', v: number }
 *   | { $: 'h', v: string[][] }
 *   | { $: 'a' | 'set', v: Wire[] }
 *   | { $: 'map', v: Wire[][] }
 *   | { $: 'o', v: Record<string, Wire> }
 *   | { $: 'back', id: number }
 *   | { $: 'f', id: number, name: string, length: number, errorClass: boolean }
 *   | { $: 'p', id: number }
 *   | { $: 'sig', id: number, aborted: boolean, reason?: Wire }
 *   | ErrorWire
 *   | { $: 'res', id: number, status: number, statusText: string, headers: string[][], url: string, body: boolean }
 *   | { $: 'req', id: number, url: string, method: string, headers: string[][], signal: Wire, body: boolean, redirect: string }
 *   | HandleWire
 *   | { $: 'srv', id: number }
 * } Wire
 */

/**
 * An error: a copy with its class (cls: the id of a class the receiver handed out), name, message,
 * fields and cause; `again` when it appears a second time inside the same value.
 * @typedef {{ $: 'e', id: number, again: true }
 *   | { $: 'e', id: number, cls: number | undefined, kind: string, name: string, message: string, stack: string, props: Record<string, Wire> }
 * } ErrorWire
 */

/**
 * An object with behaviour, by handle, with what may be read of it without asking (codec.mjs's
 * knownFields): `m` the methods its class defines, `f` a plain object's cheap own fields, `all`
 * when `f` is every field it has; `prim`, the number it converts to (a timer's, timers.mjs).
 * @typedef {{ $: 'r', id: number, cls?: number, m?: Record<string, Wire>, f?: Record<string, Wire>, all?: true, prim?: number }} HandleWire
 */

/**
 * Requests: each carries `call`, the sender's number for it, and is answered by one `reply`.
 * @typedef {{ t: 'call', fn: number, self: Wire, args: Wire[] }
 *   | { t: 'new', fn: number, args: Wire[] }
 *   | { t: 'get' | 'has' | 'delete' | 'desc', id: number, key: string }
 *   | { t: 'set', id: number, key: string, value: Wire }
 *   | { t: 'keys' | 'body', id: number }
 *   | { t: 'load', file: string }
 *   | { t: 'global', name: string, args: Wire[] }
 * } Request
 */

/**
 * Notices: no answer. `reply` answers a request (`wb`: the copied arguments the callee changed, by
 * position); `settle` and `abort` end a promise or a signal the sender handed out; `unhandled` is a
 * rejection nobody handled; `notify` a clock read made at the sender (one of NOTIFIED). The http
 * bridge's hc, hd, hb, he and hx are specified in http-bridge.mjs. The channel's own news (the
 * connection ended, a line that is not a JSON object) never comes as a message: channel.mjs hands it
 * over apart, so a line of the other end cannot pose as it.
 * @typedef {{ t: 'reply', call: number, ok: boolean, value: Wire, wb?: Record<string, Wire> }
 *   | { t: 'settle', id: number, ok: boolean, value: Wire }
 *   | { t: 'abort', id: number, reason: Wire }
 *   | { t: 'unhandled', reason: Wire }
 *   | { t: 'notify', name: string }
 * } Notice
 */

/** @typedef {(Request & { call: number }) | Notice | import('./http-bridge.mjs').BridgeMessage} Message */

/**
 * A message as received: parsed JSON that nothing has checked yet (every field is read defensively).
 * @typedef {Record<string, any>} Untrusted
 */
