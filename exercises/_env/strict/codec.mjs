// @ts-check
// Values to the wire and back (the shapes are wire.mjs's, the rules ./README.md's): primitives, plain
// data, arrays and the built-in value classes as copies; functions, promises, signals and objects
// with behaviour as handles, which decode into the mirrors (mirrors.mjs) of the end that reads them.
import { isServer } from './http-bridge.mjs';
import { createKnownFields, isPlain } from './known.mjs';
import { BLOCKED_KEYS, MAX_DEPTH, nameOf, ProtocolViolation } from './wire.mjs';

/** The kinds of value a wire value may be (wire.mjs's Wire), named in a violation's text. */
const KINDS = new Set([
  'u',
  'n',
  'big',
  'sym',
  'd',
  'url',
  'usp',
  'h',
  'ab',
  'u8',
  'a',
  'map',
  'set',
  'o',
  'e',
  'res',
  'req',
  'f',
  'p',
  'sig',
  'r',
  'srv',
  'back',
]);

/** @typedef {import('./wire.mjs').Wire} Wire */
/** @typedef {import('./wire.mjs').Message} Message */
/** @typedef {import('./wire.mjs').Untrusted} Untrusted */

const toB64 = (/** @type {Uint8Array} */ u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
const fromB64 = (/** @type {unknown} */ s) => new Uint8Array(Buffer.from(String(s), 'base64'));

/** A plain object that is pure data (no methods, no accessors): copied. Anything else is a handle. @param {object} v */
export function isData(v) {
  if (!isPlain(v)) return false;
  for (const key of Reflect.ownKeys(v)) {
    const d = Object.getOwnPropertyDescriptor(v, key);
    if (typeof key === 'symbol' || !d || d.get || d.set || typeof d.value === 'function') return false;
  }
  return true;
}

/**
 * @param {{
 *   guard: boolean,
 *   handles: import('./handles.mjs').Handles,
 *   post(msg: Message): void,
 *   violation(why: string): Error,
 *   mirror(x: Untrusted, depth: number): unknown,
 *   primitive?: (obj: object) => number | undefined,
 * }} o guard: the tests' end (see ./README.md); mirror: the stand-in for a handle of the other end;
 *   primitive: the number an object of this end converts to, sent with its handle (timers.mjs)
 */
export function createCodec(o) {
  const { handles } = o;
  const idOf = handles.idOf;
  const knownFields = createKnownFields({ guard: o.guard, handles, encode: (v, depth, seen) => encode(v, depth, seen) });

  /** @param {unknown} v @param {number} [depth] @param {Set<object>} [seen] @returns {Wire} */
  function encode(v, depth = 0, seen = new Set()) {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : { $: 'n', v: Object.is(v, -0) ? '-0' : String(v) };
    if (v === undefined) return { $: 'u' };
    if (typeof v === 'bigint') return { $: 'big', v: v.toString() };
    if (typeof v === 'symbol') return { $: 'sym', v: v.description ?? '' };
    if (handles.isMirror(v)) return { $: 'back', id: /** @type {number} */ (handles.remoteId(/** @type {object} */ (v))) };
    if (typeof v === 'function') {
      const errorClass = v.prototype instanceof Error || v === Error;
      return { $: 'f', id: idOf(v), name: String(v.name ?? ''), length: Number(v.length) || 0, errorClass };
    }
    const obj = /** @type {object} */ (v);
    if (depth > MAX_DEPTH) return { $: 'r', id: idOf(obj) };
    if (!o.guard && isServer(obj)) return { $: 'srv', id: idOf(obj) };
    if (typeof AbortSignal !== 'undefined' && obj instanceof AbortSignal) return encodeSignal(obj);
    if (obj instanceof Promise) return encodePromise(obj);
    if (obj instanceof Error) return encodeError(obj, depth, seen);
    if (typeof Response !== 'undefined' && obj instanceof Response) {
      return { $: 'res', id: idOf(obj), status: obj.status, statusText: obj.statusText, headers: [...obj.headers], url: obj.url, body: obj.body !== null };
    }
    if (typeof Request !== 'undefined' && obj instanceof Request) {
      return {
        $: 'req',
        id: idOf(obj),
        url: obj.url,
        method: obj.method,
        headers: [...obj.headers],
        signal: encode(obj.signal),
        body: obj.body !== null,
        redirect: obj.redirect,
      };
    }
    if (typeof Headers !== 'undefined' && obj instanceof Headers) return { $: 'h', v: [...obj] };
    if (obj instanceof URL) return { $: 'url', v: obj.href };
    if (obj instanceof URLSearchParams) return { $: 'usp', v: obj.toString() };
    if (obj instanceof Date) return { $: 'd', v: obj.getTime() };
    if (obj instanceof ArrayBuffer) return { $: 'ab', v: toB64(new Uint8Array(obj)) };
    if (obj instanceof Uint8Array) return { $: 'u8', v: toB64(obj) };
    if (seen.has(obj)) return { $: 'r', id: idOf(obj) };
    if (Array.isArray(obj) && Object.getPrototypeOf(obj) === Array.prototype) {
      seen.add(obj);
      const out = /** @type {Wire} */ ({ $: 'a', v: Array.from(obj, (x) => encode(x, depth + 1, seen)) });
      seen.delete(obj);
      return out;
    }
    if (obj instanceof Map) return { $: 'map', v: [...obj].map(([k, x]) => [encode(k, depth + 1, seen), encode(x, depth + 1, seen)]) };
    if (obj instanceof Set) return { $: 'set', v: [...obj].map((x) => encode(x, depth + 1, seen)) };
    if (isData(obj)) {
      seen.add(obj);
      /** @type {Record<string, Wire>} */
      const out = {};
      const fields = /** @type {Record<string, unknown>} */ (obj);
      for (const key of Object.keys(obj)) out[key] = encode(fields[key], depth + 1, seen);
      seen.delete(obj);
      return { $: 'o', v: out };
    }
    const prim = o.primitive?.(obj);
    return { $: 'r', id: idOf(obj), cls: handles.classId(obj), ...knownFields(obj, depth, seen), ...(prim === undefined ? {} : { prim }) };
  }

  /** A signal by handle; the other end's mirror aborts when this one does. @param {AbortSignal} s @returns {Wire} */
  function encodeSignal(s) {
    const fresh = !handles.handedOut(s);
    const id = idOf(s);
    if (fresh && !s.aborted) s.addEventListener('abort', () => o.post({ t: 'abort', id, reason: encode(s.reason) }), { once: true });
    return { $: 'sig', id, aborted: s.aborted, ...(s.aborted ? { reason: encode(s.reason) } : {}) };
  }

  /** A promise by handle; the other end's mirror settles when this one does. @param {Promise<unknown>} p @returns {Wire} */
  function encodePromise(p) {
    const fresh = !handles.handedOut(p);
    const id = idOf(p);
    if (fresh) {
      p.then(
        (value) => o.post({ t: 'settle', id, ok: true, value: encodeSafely(value) }),
        (error) => o.post({ t: 'settle', id, ok: false, value: encodeSafely(error) }),
      );
    }
    return { $: 'p', id };
  }

  /** @param {Error} e @param {number} depth @param {Set<object>} seen @returns {Wire} */
  function encodeError(e, depth, seen) {
    const fresh = !handles.handedOut(e);
    const id = idOf(e);
    if (!fresh && seen.has(e)) return { $: 'e', id, again: true };
    seen.add(e);
    /** @type {Record<string, Wire>} */
    const props = {};
    const fields = /** @type {Error & Record<string, unknown>} */ (e);
    for (const key of Object.keys(e)) if (key !== 'message' && key !== 'stack') props[key] = encode(fields[key], depth + 1, seen);
    if (Object.hasOwn(e, 'cause')) props.cause = encode(e.cause, depth + 1, seen);
    seen.delete(e);
    const dom = typeof DOMException !== 'undefined' && e instanceof DOMException;
    return {
      $: 'e',
      id,
      cls: handles.classId(e),
      kind: dom ? 'DOMException' : String(e.constructor?.name ?? 'Error'),
      name: String(e.name),
      message: String(e.message),
      // The tests' errors reach the learner without their frames: those name the hidden test files
      // and the host's folders (an error sent back is the tests' own again, its stack intact).
      stack: o.guard ? `${String(e.name)}: ${String(e.message)}\n    at <the tests>` : String(e.stack ?? ''),
      props,
    };
  }

  /** A value that could not be sent becomes an error the receiving side sees (never a hang). @param {unknown} v */
  function encodeSafely(v) {
    try {
      return encode(v);
    } catch (error) {
      return encode(new TypeError(`this value cannot cross to the tests: ${String(/** @type {Error} */ (error)?.message ?? error)}`));
    }
  }

  /** A name the guarded end may read or write. @param {unknown} k @returns {k is string} */
  const safeKey = (k) => typeof k === 'string' && !(o.guard && BLOCKED_KEYS.has(k));

  /** @param {unknown} v @returns {unknown[]} */
  function list(v) {
    if (!Array.isArray(v)) throw o.violation('a list that is not a list');
    return v;
  }

  /**
   * The other end's value, as data here or as a mirror; anything malformed is a violation. On the
   * guarded end that includes a value whose shape is right but which cannot be rebuilt (an invalid
   * URL or header name, a 204 with a body, a bigint of letters): the error it throws here would
   * otherwise be lost in the middle of a message, and a call waiting for that reply would wait for
   * ever. The words are fixed: the error's own would quote what the other end wrote.
   * @param {unknown} wire @param {number} [depth] @returns {unknown}
   */
  function decode(wire, depth = 0) {
    try {
      return rebuild(wire, depth);
    } catch (error) {
      if (!o.guard || error instanceof ProtocolViolation) throw error;
      const tag = wire && typeof wire === 'object' ? /** @type {Untrusted} */ (wire).$ : undefined;
      throw o.violation(`a value that cannot be rebuilt here (${KINDS.has(tag) ? tag : 'unknown kind'})`);
    }
  }

  /** decode's work. @param {unknown} wire @param {number} depth @returns {unknown} */
  function rebuild(wire, depth) {
    if (depth > MAX_DEPTH * 2) throw o.violation('a value nested too deeply');
    if (wire === null || typeof wire === 'boolean' || typeof wire === 'string' || typeof wire === 'number') return wire;
    if (typeof wire !== 'object' || Array.isArray(wire)) throw o.violation('a value of an unknown shape');
    const x = /** @type {Untrusted} */ (wire);
    switch (x.$) {
      case 'u':
        return undefined;
      case 'n':
        return x.v === '-0' ? -0 : Number(x.v);
      case 'big':
        return BigInt(String(x.v));
      case 'sym':
        return Symbol(String(x.v));
      case 'back':
        return handles.mine(x.id, 'an object');
      case 'f':
      case 'p':
      case 'sig':
      case 'e':
      case 'res':
      case 'req':
      case 'r':
      case 'srv':
        return o.mirror(x, depth);
      case 'h':
        return new Headers(/** @type {[string, string][]} */ (list(x.v).map((pair) => list(pair).map(String))));
      case 'url':
        return new URL(String(x.v));
      case 'usp':
        return new URLSearchParams(String(x.v));
      case 'd':
        return new Date(Number(x.v));
      case 'ab':
        return fromB64(x.v).buffer;
      case 'u8':
        return fromB64(x.v);
      case 'a':
        return list(x.v).map((v) => decode(v, depth + 1));
      case 'map':
        return new Map(/** @type {[unknown, unknown][]} */ (list(x.v).map((pair) => list(pair).map((v) => decode(v, depth + 1)))));
      case 'set':
        return new Set(list(x.v).map((v) => decode(v, depth + 1)));
      case 'o': {
        const out = {};
        if (!x.v || typeof x.v !== 'object') throw o.violation('an object without fields');
        for (const key of Object.keys(x.v)) {
          if (!safeKey(key)) continue;
          Object.defineProperty(out, key, { value: decode(x.v[key], depth + 1), enumerable: true, writable: true, configurable: true });
        }
        return out;
      }
      default:
        throw o.violation(`a value of unknown kind ${nameOf(x.$)}`);
    }
  }

  return { encode, encodeSafely, decode, safeKey, list };
}

/** @typedef {ReturnType<typeof createCodec>} Codec */
