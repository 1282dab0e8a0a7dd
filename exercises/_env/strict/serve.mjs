// @ts-check
// Serving the other end's requests against the objects this end handed out (./README.md, "Messages"
// and "The guard"). The guarded end (the tests') answers only for its own objects, only for what they
// or their classes define, never for a blocked or internal name; rpc.mjs sends the answer.
import { INTRINSIC_PROTOS, internalKey, nameOf } from './wire.mjs';

/** @typedef {import('./wire.mjs').Untrusted} Untrusted */

/**
 * @param {{
 *   guard: boolean,
 *   invoke: (fn: Function, self: unknown, args: unknown[]) => unknown,
 *   onLoad?: (file: string) => unknown,
 *   globals?: Record<string, () => [Function, unknown]>,
 *   handles: import('./handles.mjs').Handles,
 *   codec: import('./codec.mjs').Codec,
 *   violation(why: string): Error,
 * }} o
 */
export function createServer(o) {
  const { codec, violation } = o;
  const { decode, safeKey, list } = codec;
  const mine = o.handles.mine;

  /**
   * A name of one of its objects the guarded end answers for: not blocked (wire.mjs's BLOCKED_KEYS),
   * not internal (`_…`, wire.mjs's internalKey).
   * @param {unknown} k @returns {k is string}
   */
  const open = (k) => safeKey(k) && !(o.guard && internalKey(k));

  /** A property read the guarded end allows: own, or defined by a class (never by the language itself). @param {object} obj @param {string} key */
  function allowedOwner(obj, key) {
    if (!o.guard) return true;
    for (let p = obj; p; p = Object.getPrototypeOf(p)) {
      if (INTRINSIC_PROTOS.has(p)) return false;
      if (Object.hasOwn(p, key)) return true;
    }
    return false;
  }

  /**
   * A write the guarded end allows: what it would let be read (own, or a class's: a setter runs), or
   * a new field (the learner's middleware sets `req.deadline` on the tests' request), but never one
   * that would shadow what the language's own prototypes define (`toString`, `valueOf`…), which
   * the tests' code calls on its own objects.
   * @param {object} obj @param {string} key
   */
  const writable = (obj, key) => allowedOwner(obj, key) || !(key in obj);

  /** @param {Untrusted} msg @param {{ args: unknown[] | undefined }} seen the decoded arguments of a call, for the write-back */
  function serve(msg, seen) {
    const key = msg.key;
    switch (msg.t) {
      case 'call': {
        const fn = mine(msg.fn, 'a function');
        if (typeof fn !== 'function') throw violation('a call of something that is not a function');
        seen.args = list(msg.args).map((a) => decode(a));
        return o.invoke(fn, decode(msg.self), seen.args);
      }
      case 'new': {
        const fn = mine(msg.fn, 'a function');
        if (typeof fn !== 'function') throw violation('a construction of something that is not a function');
        seen.args = list(msg.args).map((a) => decode(a));
        return Reflect.construct(fn, seen.args);
      }
      case 'get': {
        const obj = mine(msg.id, 'an object');
        if (!open(key) || !allowedOwner(obj, key)) return undefined;
        return /** @type {Record<string, unknown>} */ (obj)[key];
      }
      case 'set': {
        const obj = mine(msg.id, 'an object');
        if (!open(key) || !writable(obj, key)) return false;
        return Reflect.set(obj, key, decode(msg.value));
      }
      case 'has': {
        const obj = mine(msg.id, 'an object');
        return open(key) && key in obj && allowedOwner(obj, key);
      }
      case 'delete': {
        const obj = mine(msg.id, 'an object');
        if (!open(key)) return false;
        // Only an own field is deleted (allowedOwner's own case): deleting any other name changes
        // nothing, as in JavaScript, where it also answers true.
        return Object.hasOwn(obj, key) ? Reflect.deleteProperty(obj, key) : true;
      }
      case 'keys':
        return Reflect.ownKeys(mine(msg.id, 'an object')).filter((k) => typeof k === 'string' && open(k));
      case 'desc': {
        const obj = mine(msg.id, 'an object');
        if (!open(key)) return undefined;
        const d = Object.getOwnPropertyDescriptor(obj, key);
        return d ? { value: 'value' in d ? d.value : /** @type {Record<string, unknown>} */ (obj)[key], enumerable: d.enumerable } : undefined;
      }
      case 'body': {
        const res = mine(msg.id, 'a response');
        if (!(res instanceof Response) && !(res instanceof Request)) throw violation('a body read of something that is not a response or a request');
        return res.arrayBuffer().then((b) => new Uint8Array(b));
      }
      case 'load':
        if (o.guard || !o.onLoad) throw violation('a module load request to the tests');
        return o.onLoad(String(msg.file));
      case 'global': {
        const pick = Object.hasOwn(o.globals ?? {}, msg.name) ? o.globals?.[msg.name] : undefined;
        if (!pick) throw violation(`a request for global ${nameOf(msg.name)}`);
        const [fn, self] = pick();
        return o.invoke(
          fn,
          self,
          list(msg.args).map((a) => decode(a)),
        );
      }
      default:
        throw violation(`a request of unknown kind ${nameOf(msg.t)}`);
    }
  }

  return serve;
}
