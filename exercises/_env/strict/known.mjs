// @ts-check
// What one end sends with a handle of an object of its own, for the other end to read without a
// round trip (./README.md, "What comes with a handle"): a plain object's cheap own fields and the
// methods its class defines. The codec (codec.mjs) calls it for every `r` handle it sends.
import { INTRINSIC_PROTOS, internalKey } from './wire.mjs';

/** @typedef {import('./wire.mjs').Wire} Wire */

/** An object whose prototype is Object.prototype or null. @param {object} v */
export const isPlain = (v) => {
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
};

/**
 * @param {{
 *   guard: boolean,
 *   handles: import('./handles.mjs').Handles,
 *   encode(v: unknown, depth: number, seen: Set<object>): Wire,
 * }} o guard: the tests' end, which sends no name it would refuse to answer for (wire.mjs's internalKey)
 */
export function createKnownFields(o) {
  const { handles, encode } = o;
  /** @param {string} k */
  const hidden = (k) => o.guard && internalKey(k);

  /**
   * What the other side may read of a handle without asking: each read of a handle's property is
   * a round trip, and the suites read options objects (`opts.now`, `opts.maxAttempts`…) and call
   * methods (`budget.trySpend`) thousands of times per grade. Sent with the handle, read from when
   * it arrives, refreshed each time it crosses again: a plain object's own fields whose values are
   * cheap to send (primitives, short strings, functions, abort signals, other handles), and the
   * methods its class defines that no own field hides; when every field of a plain object is sent,
   * a name it does not have reads as undefined without asking. After a field is set or deleted
   * through the handle, reads of that handle ask again. Fields changed later by the object's own
   * side are not seen until the object crosses again, as with the data objects that cross as copies.
   * @param {object} v @param {number} depth @param {Set<object>} seen
   */
  function knownFields(v, depth, seen) {
    /** @type {{ f?: Record<string, Wire>, all?: true, m?: Record<string, Wire> }} */
    const out = {};
    const own = new Set(Reflect.ownKeys(v));
    if (isPlain(v)) {
      /** @type {Record<string, Wire>} */
      const fields = {};
      let all = true;
      for (const key of own) {
        if (typeof key !== 'string' || hidden(key)) continue;
        const d = Object.getOwnPropertyDescriptor(v, key);
        if (d && !d.get && !d.set && cheap(d.value)) fields[key] = encode(d.value, depth + 1, seen);
        else all = false;
      }
      out.f = fields;
      // Every field is known: any other name reads as missing (the guarded end never answers with
      // what the language's own prototypes hold, and the suites' plain objects have nothing else).
      if (all) out.all = true;
    }
    /** @type {Record<string, Wire>} */
    const methods = {};
    /** @type {Set<string | symbol>} */
    const shadowed = new Set(own);
    for (let p = Object.getPrototypeOf(v); p && !INTRINSIC_PROTOS.has(p); p = Object.getPrototypeOf(p)) {
      for (const key of Object.getOwnPropertyNames(p)) {
        if (shadowed.has(key) || hidden(key)) continue;
        shadowed.add(key);
        const d = Object.getOwnPropertyDescriptor(p, key);
        if (key !== 'constructor' && d && !d.get && !d.set && typeof d.value === 'function') methods[key] = encode(d.value, depth + 1, seen);
      }
    }
    out.m = methods;
    return out;
  }

  /** A value that crosses in a few bytes: never data that would be copied whole (arrays, plain objects). @param {unknown} x */
  function cheap(x) {
    if (x === null || x === undefined) return true;
    if (typeof x === 'string') return x.length <= 1024;
    if (typeof x !== 'object') return true; // numbers, booleans, bigints, symbols, functions
    if (handles.isMirror(x) || (typeof AbortSignal !== 'undefined' && x instanceof AbortSignal)) return true;
    return false;
  }

  return knownFields;
}
