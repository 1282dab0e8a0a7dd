// The membrane between the hidden tests and the learner's modules when they run in two processes
// (strict grading). Values cross as data: primitives, plain data objects and arrays by value;
// errors, Response, Headers, URL, Date and bytes as copies; functions, promises, abort signals and
// objects with behaviour as handles (a call through a handle runs in the process that owns it, and
// a handle sent back becomes the original object again, so identity survives a round trip);
// an http.Server of the learner's as a stand-in server in the tests' process, its requests carried
// across as bytes (http-bridge.mjs).
//
// Both ends run this file; the test end is created with `guard: true`, which treats everything the
// other end sends as hostile: it only ever touches objects it handed out itself, only their own
// or class-defined properties (never Object.prototype, Function.prototype, constructors), never
// decodes vitest's matcher hooks (asymmetricMatch), and reports anything malformed as a violation.

import { createHttpBridge, isBridgeMessage } from './http-bridge.mjs';

const MAX_DEPTH = 64;
const BLOCKED_KEYS = new Set([
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
const INTRINSIC_PROTOS = new Set([Object.prototype, Function.prototype, Array.prototype, Error.prototype, Promise.prototype, Map.prototype, Set.prototype]);
const ERROR_CLASSES = { Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError };

/** The name of the error that replaces a value too large to cross (the tests' side reports it). */
export const LIMIT_ERROR = 'GradingProtocolLimit';

export class ProtocolViolation extends Error {
  constructor(message) {
    super(message);
    this.name = 'ProtocolViolation';
  }
}

const toB64 = (u8) => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString('base64');
const fromB64 = (s) => new Uint8Array(Buffer.from(String(s), 'base64'));

/**
 * @param {{
 *   send(msg: object): void,
 *   waitUntil(done: () => boolean): void,
 *   guard: boolean,
 *   invoke?: (fn: Function, self: unknown, args: unknown[]) => unknown,
 *   onViolation?: (why: string) => void,
 *   onLoad?: (file: string) => unknown,
 *   globals?: Record<string, () => [Function, unknown]>,
 *   onUnhandled?: (reason: unknown) => void,
 * }} o
 */
export function createMembrane(o) {
  const invoke = o.invoke ?? ((fn, self, args) => Reflect.apply(fn, self, args));
  const exported = new Map(); // id -> local object handed out
  const exportId = new WeakMap(); // local object -> id
  const mirrors = new Map(); // remote id -> local stand-in
  const mirrorId = new WeakMap(); // local stand-in -> remote id
  const knownOf = new Map(); // remote id -> { values, all }: what may be read of it without asking (see knownFields)
  const signals = new Map(); // remote signal id -> AbortController
  const promises = new Map(); // remote promise id -> { resolve, reject }
  const replies = new Map(); // my call id -> { ok, value }
  let nextId = 1;
  let nextCall = 1;
  let closed;

  const violation = (why) => {
    o.onViolation?.(why);
    return new ProtocolViolation(`grading protocol: ${why}`);
  };
  // The learner's http.Servers: a stand-in server on the tests' side, connections across (http-bridge.mjs).
  const httpBridge = createHttpBridge({ send: (msg) => post(msg), guard: o.guard, violation, lookup: (id) => mine(id, 'a server') });

  function idOf(value) {
    let id = exportId.get(value);
    if (id === undefined) {
      id = nextId++;
      exportId.set(value, id);
      exported.set(id, value);
    }
    return id;
  }

  function classId(value) {
    for (let p = Object.getPrototypeOf(value); p && !INTRINSIC_PROTOS.has(p); p = Object.getPrototypeOf(p)) {
      const ctor = Object.getOwnPropertyDescriptor(p, 'constructor')?.value;
      if (typeof ctor === 'function' && exportId.has(ctor)) return exportId.get(ctor);
      if (typeof ctor === 'function' && mirrorId.has(ctor)) return undefined;
    }
    return undefined;
  }

  const isPlain = (v) => {
    const p = Object.getPrototypeOf(v);
    return p === Object.prototype || p === null;
  };

  /** A plain object that is pure data (no methods, no accessors): copied. Anything else is a handle. */
  function isData(v) {
    if (!isPlain(v)) return false;
    for (const key of Reflect.ownKeys(v)) {
      const d = Object.getOwnPropertyDescriptor(v, key);
      if (typeof key === 'symbol' || !d || d.get || d.set || typeof d.value === 'function') return false;
    }
    return true;
  }

  function encode(v, depth = 0, seen = new Set()) {
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0) ? v : { $: 'n', v: Object.is(v, -0) ? '-0' : String(v) };
    if (v === undefined) return { $: 'u' };
    if (typeof v === 'bigint') return { $: 'big', v: v.toString() };
    if (typeof v === 'symbol') return { $: 'sym', v: v.description ?? '' };
    if (mirrorId.has(v)) return { $: 'back', id: mirrorId.get(v) };
    if (typeof v === 'function') {
      const errorClass = v.prototype instanceof Error || v === Error;
      return { $: 'f', id: idOf(v), name: String(v.name ?? ''), length: Number(v.length) || 0, errorClass };
    }
    if (depth > MAX_DEPTH) return { $: 'r', id: idOf(v) };
    if (!o.guard && httpBridge.isServer(v)) return { $: 'srv', id: idOf(v) };
    if (typeof AbortSignal !== 'undefined' && v instanceof AbortSignal) return encodeSignal(v, depth, seen);
    if (v instanceof Promise) return encodePromise(v);
    if (v instanceof Error) return encodeError(v, depth, seen);
    if (typeof Response !== 'undefined' && v instanceof Response) {
      return { $: 'res', id: idOf(v), status: v.status, statusText: v.statusText, headers: [...v.headers], url: v.url, body: v.body !== null };
    }
    if (typeof Request !== 'undefined' && v instanceof Request) {
      return {
        $: 'req',
        id: idOf(v),
        url: v.url,
        method: v.method,
        headers: [...v.headers],
        signal: encode(v.signal),
        body: v.body !== null,
        redirect: v.redirect,
      };
    }
    if (typeof Headers !== 'undefined' && v instanceof Headers) return { $: 'h', v: [...v] };
    if (v instanceof URL) return { $: 'url', v: v.href };
    if (v instanceof URLSearchParams) return { $: 'usp', v: v.toString() };
    if (v instanceof Date) return { $: 'd', v: v.getTime() };
    if (v instanceof ArrayBuffer) return { $: 'ab', v: toB64(new Uint8Array(v)) };
    if (v instanceof Uint8Array) return { $: 'u8', v: toB64(v) };
    if (seen.has(v)) return { $: 'r', id: idOf(v) };
    if (Array.isArray(v) && Object.getPrototypeOf(v) === Array.prototype) {
      seen.add(v);
      const out = { $: 'a', v: Array.from(v, (x) => encode(x, depth + 1, seen)) };
      seen.delete(v);
      return out;
    }
    if (v instanceof Map) return { $: 'map', v: [...v].map(([k, x]) => [encode(k, depth + 1, seen), encode(x, depth + 1, seen)]) };
    if (v instanceof Set) return { $: 'set', v: [...v].map((x) => encode(x, depth + 1, seen)) };
    if (isData(v)) {
      seen.add(v);
      const out = {};
      for (const key of Object.keys(v)) out[key] = encode(v[key], depth + 1, seen);
      seen.delete(v);
      return { $: 'o', v: out };
    }
    return { $: 'r', id: idOf(v), cls: classId(v), ...knownFields(v, depth, seen) };
  }

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
   */
  function knownFields(v, depth, seen) {
    const out = {};
    const own = new Set(Reflect.ownKeys(v));
    if (isPlain(v)) {
      const fields = {};
      let all = true;
      for (const key of own) {
        if (typeof key !== 'string') continue;
        const d = Object.getOwnPropertyDescriptor(v, key);
        if (d && !d.get && !d.set && cheap(d.value)) fields[key] = encode(d.value, depth + 1, seen);
        else all = false;
      }
      out.f = fields;
      // Every field is known: any other name reads as missing (the guarded end never answers with
      // what the language's own prototypes hold, and the suites' plain objects have nothing else).
      if (all) out.all = true;
    }
    const methods = {};
    const shadowed = new Set(own);
    for (let p = Object.getPrototypeOf(v); p && !INTRINSIC_PROTOS.has(p); p = Object.getPrototypeOf(p)) {
      for (const key of Object.getOwnPropertyNames(p)) {
        if (shadowed.has(key)) continue;
        shadowed.add(key);
        const d = Object.getOwnPropertyDescriptor(p, key);
        if (key !== 'constructor' && d && !d.get && !d.set && typeof d.value === 'function') methods[key] = encode(d.value, depth + 1, seen);
      }
    }
    out.m = methods;
    return out;
  }

  /** A value that crosses in a few bytes: never data that would be copied whole (arrays, plain objects). */
  function cheap(x) {
    if (x === null || x === undefined) return true;
    if (typeof x === 'string') return x.length <= 1024;
    if (typeof x !== 'object') return true; // numbers, booleans, bigints, symbols, functions
    if (mirrorId.has(x) || (typeof AbortSignal !== 'undefined' && x instanceof AbortSignal)) return true;
    return false;
  }

  function encodeSignal(s) {
    const fresh = !exportId.has(s);
    const id = idOf(s);
    if (fresh && !s.aborted) s.addEventListener('abort', () => post({ t: 'abort', id, reason: encode(s.reason) }), { once: true });
    return { $: 'sig', id, aborted: s.aborted, ...(s.aborted ? { reason: encode(s.reason) } : {}) };
  }

  function encodePromise(p) {
    const fresh = !exportId.has(p);
    const id = idOf(p);
    if (fresh) {
      p.then(
        (value) => post({ t: 'settle', id, ok: true, value: encodeSafely(value) }),
        (error) => post({ t: 'settle', id, ok: false, value: encodeSafely(error) }),
      );
    }
    return { $: 'p', id };
  }

  function encodeError(e, depth, seen) {
    const fresh = !exportId.has(e);
    const id = idOf(e);
    if (!fresh && seen.has(e)) return { $: 'e', id, again: true };
    seen.add(e);
    const props = {};
    for (const key of Object.keys(e)) if (key !== 'message' && key !== 'stack') props[key] = encode(e[key], depth + 1, seen);
    if (Object.hasOwn(e, 'cause')) props.cause = encode(e.cause, depth + 1, seen);
    seen.delete(e);
    const dom = typeof DOMException !== 'undefined' && e instanceof DOMException;
    return {
      $: 'e',
      id,
      cls: classId(e),
      kind: dom ? 'DOMException' : String(e.constructor?.name ?? 'Error'),
      name: String(e.name),
      message: String(e.message),
      stack: String(e.stack ?? ''),
      props,
    };
  }

  /** A value that could not be sent becomes an error the receiving side sees (never a hang). */
  function encodeSafely(v) {
    try {
      return encode(v);
    } catch (error) {
      return encode(new TypeError(`this value cannot cross to the tests: ${String(error?.message ?? error)}`));
    }
  }

  function post(msg) {
    if (closed) return;
    let text;
    try {
      text = JSON.stringify(msg);
    } catch (error) {
      throw new RangeError(`a value too large or too deep for the grading protocol: ${error.message}`);
    }
    if (text.length > 8 * 1024 * 1024)
      throw new RangeError(`a value too large for the grading protocol (${(text.length / 1048576).toFixed(1)} MB; the limit is 8 MB)`);
    o.send(msg);
  }

  // ---- decoding ------------------------------------------------------------------------------

  const safeKey = (k) => typeof k === 'string' && !(o.guard && BLOCKED_KEYS.has(k));

  function mine(id, what) {
    if (!exported.has(id)) throw violation(`a reference to ${what} that was never sent (id ${String(id)})`);
    return exported.get(id);
  }

  function decode(x, depth = 0) {
    if (depth > MAX_DEPTH * 2) throw violation('a value nested too deeply');
    if (x === null || typeof x === 'boolean' || typeof x === 'string' || typeof x === 'number') return x;
    if (typeof x !== 'object' || Array.isArray(x)) throw violation('a value of an unknown shape');
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
        return mine(x.id, 'an object');
      case 'f':
        return fnMirror(x);
      case 'p':
        return promiseMirror(x.id);
      case 'sig':
        return signalMirror(x);
      case 'e':
        return errorMirror(x, depth);
      case 'res':
        return responseMirror(x);
      case 'req':
        return requestMirror(x);
      case 'h':
        return new Headers(list(x.v).map((pair) => list(pair).map(String)));
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
        return new Map(list(x.v).map((pair) => list(pair).map((v) => decode(v, depth + 1))));
      case 'set':
        return new Set(list(x.v).map((v) => decode(v, depth + 1)));
      case 'o': {
        const out = {};
        if (!x.v || typeof x.v !== 'object') throw violation('an object without fields');
        for (const key of Object.keys(x.v)) {
          if (!safeKey(key)) continue;
          Object.defineProperty(out, key, { value: decode(x.v[key], depth + 1), enumerable: true, writable: true, configurable: true });
        }
        return out;
      }
      case 'r':
        return objectMirror(x, depth);
      case 'srv':
        if (!o.guard) throw violation('a server sent to the learner');
        return cached(x.id, () => httpBridge.standIn(x.id));
      default:
        throw violation(`a value of unknown kind ${JSON.stringify(String(x.$)).slice(0, 40)}`);
    }
  }

  function list(v) {
    if (!Array.isArray(v)) throw violation('a list that is not a list');
    return v;
  }

  function cached(id, make) {
    if (mirrors.has(id)) return mirrors.get(id);
    const m = make();
    mirrors.set(id, m);
    mirrorId.set(m, id);
    return m;
  }

  function fnMirror(x) {
    return cached(x.id, () => {
      const id = x.id;
      const m = function (...args) {
        return new.target
          ? request({ t: 'new', fn: id, args: args.map((a) => encode(a)) }, args)
          : request({ t: 'call', fn: id, self: encode(this), args: args.map((a) => encode(a)) }, args);
      };
      Object.defineProperty(m, 'name', { value: String(x.name ?? '') });
      Object.defineProperty(m, 'length', { value: Number(x.length) || 0 });
      if (x.errorClass) m.prototype = Object.create(Error.prototype, { constructor: { value: m, writable: true, configurable: true } });
      return m;
    });
  }

  function promiseMirror(id) {
    return cached(id, () => {
      let settle;
      const p = new Promise((resolve, reject) => (settle = { resolve, reject }));
      promises.set(id, settle);
      if (closed) settle.reject(closedError());
      return p;
    });
  }

  function signalMirror(x) {
    return cached(x.id, () => {
      const c = new AbortController();
      signals.set(x.id, c);
      if (x.aborted) c.abort(decode(x.reason));
      return c.signal;
    });
  }

  function classOf(id) {
    const m = id === undefined ? undefined : mirrors.get(id);
    return typeof m === 'function' ? m : undefined;
  }

  function errorMirror(x, depth) {
    if (x.again) {
      if (!mirrors.has(x.id)) throw violation('a repeated error that was never sent');
      return mirrors.get(x.id);
    }
    if (mirrors.has(x.id)) return mirrors.get(x.id);
    const Cls = classOf(x.cls);
    const message = String(x.message ?? '');
    if (o.guard && x.name === LIMIT_ERROR) o.onViolation?.(`a value over the protocol's size limit (${message.slice(0, 120)})`);
    let e;
    if (Cls?.prototype) e = Object.create(Cls.prototype);
    else if (x.kind === 'DOMException' && typeof DOMException !== 'undefined') e = new DOMException(message, String(x.name));
    else e = Object.create((ERROR_CLASSES[x.kind] ?? ERROR_CLASSES[x.name] ?? Error).prototype);
    mirrors.set(x.id, e);
    mirrorId.set(e, x.id);
    if (!(e instanceof DOMException)) {
      Object.defineProperty(e, 'message', { value: message, writable: true, configurable: true });
      if (e.name !== String(x.name)) Object.defineProperty(e, 'name', { value: String(x.name), writable: true, configurable: true });
    }
    Object.defineProperty(e, 'stack', { value: String(x.stack ?? ''), writable: true, configurable: true });
    const props = x.props && typeof x.props === 'object' ? x.props : {};
    for (const key of Object.keys(props)) {
      if (!safeKey(key) || key === 'name') continue;
      Object.defineProperty(e, key, { value: decode(props[key], depth + 1), enumerable: key !== 'cause', writable: true, configurable: true });
    }
    return e;
  }

  /** A body that is read from the other side only when this copy's body is read. */
  function lazyBody(id) {
    return new ReadableStream(
      {
        pull: async (controller) => {
          const bytes = await request({ t: 'body', id });
          if (bytes instanceof Uint8Array && bytes.byteLength) controller.enqueue(bytes);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  function requestMirror(x) {
    return cached(x.id, () => {
      const method = String(x.method ?? 'GET');
      const init = { method, headers: list(x.headers).map((p) => list(p).map(String)), signal: decode(x.signal), redirect: String(x.redirect ?? 'follow') };
      if (x.body && method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: lazyBody(x.id), duplex: 'half' });
      return new Request(String(x.url), init);
    });
  }

  function responseMirror(x) {
    return cached(x.id, () => {
      const id = x.id;
      const body = x.body
        ? new ReadableStream(
            {
              pull: async (controller) => {
                const bytes = await request({ t: 'body', id });
                if (bytes instanceof Uint8Array && bytes.byteLength) controller.enqueue(bytes);
                controller.close();
              },
            },
            // Read the original only when this body is read: an unread body stays unread there too.
            { highWaterMark: 0 },
          )
        : null;
      const status = Number(x.status);
      const init = {
        status: status >= 200 && status <= 599 ? status : 200,
        statusText: String(x.statusText ?? ''),
        headers: list(x.headers).map((p) => list(p).map(String)),
      };
      return new Response(body, init);
    });
  }

  /** What arrived with a handle (see knownFields): key -> value, read without asking. */
  function learnKnown(x, depth) {
    const values = new Map();
    for (const part of [x.m, x.f]) {
      if (part === undefined) continue;
      if (!part || typeof part !== 'object' || Array.isArray(part)) throw violation('known fields that are not an object');
      for (const key of Object.keys(part)) if (safeKey(key)) values.set(key, decode(part[key], depth + 1));
    }
    return { values, all: x.all === true };
  }

  function objectMirror(x, depth) {
    const fresh = learnKnown(x, depth);
    if (mirrors.has(x.id)) {
      knownOf.set(x.id, fresh);
      return mirrors.get(x.id);
    }
    knownOf.set(x.id, fresh);
    return cached(x.id, () => {
      const id = x.id;
      const forget = () => knownOf.set(id, { values: new Map(), all: false });
      const read = (k) => {
        const { values, all } = knownOf.get(id);
        if (values.has(k)) return values.get(k);
        return all ? undefined : request({ t: 'get', id, key: k });
      };
      const Cls = classOf(x.cls);
      const target = Cls?.prototype ? Object.create(Cls.prototype) : {};
      const local = (k) =>
        typeof k === 'symbol' ||
        k === 'toString' ||
        k === 'valueOf' ||
        k === 'toLocaleString' ||
        k === 'hasOwnProperty' ||
        k === 'isPrototypeOf' ||
        k === 'propertyIsEnumerable';
      return new Proxy(target, {
        get: (t, k, receiver) => (local(k) ? Reflect.get(t, k, receiver) : safeKey(k) ? read(k) : undefined),
        set: (_t, k, v) => {
          forget();
          return safeKey(k) ? request({ t: 'set', id, key: k, value: encode(v) }) === true : false;
        },
        has: (t, k) => (typeof k === 'symbol' ? Reflect.has(t, k) : safeKey(k) && request({ t: 'has', id, key: k }) === true),
        deleteProperty: (_t, k) => {
          forget();
          return safeKey(k) ? request({ t: 'delete', id, key: k }) === true : false;
        },
        ownKeys: () => {
          const keys = request({ t: 'keys', id });
          return Array.isArray(keys) ? [...new Set(keys.filter((k) => typeof k === 'string' && safeKey(k)))] : [];
        },
        getOwnPropertyDescriptor: (_t, k) => {
          if (!safeKey(k)) return undefined;
          const d = request({ t: 'desc', id, key: k });
          return d && typeof d === 'object' ? { value: d.value, enumerable: d.enumerable === true, writable: true, configurable: true } : undefined;
        },
        defineProperty: () => false,
        setPrototypeOf: () => false,
      });
    });
  }

  // ---- requests and answers --------------------------------------------------------------------

  function closedError() {
    return new Error(`the learner's code is no longer reachable: ${closed}`);
  }

  function request(msg, args) {
    if (closed) throw closedError();
    const call = nextCall++;
    post({ ...msg, call });
    o.waitUntil(() => replies.has(call) || closed !== undefined);
    if (!replies.has(call)) throw closedError();
    const { ok, value, wb } = replies.get(call);
    replies.delete(call);
    if (args && wb) writeBack(args, wb);
    if (ok) return value;
    throw value;
  }

  /**
   * Arrays and plain objects cross as copies; what the callee changed in an argument it was given
   * (an in-place sort, a pushed item) is copied back when the call returns, as one process would see.
   */
  function writeBack(args, wb) {
    if (!wb || typeof wb !== 'object') return;
    for (const key of Object.keys(wb)) {
      const target = args[Number(key)];
      const fresh = decode(wb[key]);
      if (Array.isArray(target) && Array.isArray(fresh)) target.splice(0, target.length, ...fresh);
      else if (target && typeof target === 'object' && isData(target) && fresh && typeof fresh === 'object') {
        for (const k of Object.keys(target)) if (!Object.hasOwn(fresh, k)) delete target[k];
        for (const k of Object.keys(fresh)) if (safeKey(k)) target[k] = fresh[k];
      }
    }
  }

  /** The copied arguments of a call that the callee changed, re-encoded (see writeBack). */
  function changedArgs(encoded, args) {
    let wb;
    encoded.forEach((enc, i) => {
      if (!enc || (enc.$ !== 'a' && enc.$ !== 'o')) return;
      const again = encodeSafely(args[i]);
      if (JSON.stringify(again) !== JSON.stringify(enc)) (wb ??= {})[i] = again;
    });
    return wb;
  }

  /** A property read the guarded end allows: own, or defined by a class (never by the language itself). */
  function allowedOwner(obj, key) {
    if (!o.guard) return true;
    for (let p = obj; p; p = Object.getPrototypeOf(p)) {
      if (INTRINSIC_PROTOS.has(p)) return false;
      if (Object.hasOwn(p, key)) return true;
    }
    return false;
  }

  function answer(msg) {
    let value;
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
      const limit = new RangeError(String(error?.message ?? error));
      limit.name = LIMIT_ERROR;
      post({ t: 'reply', call: msg.call, ok: false, value: encode(limit) });
    }
  }

  function serve(msg, seen) {
    const key = msg.key;
    switch (msg.t) {
      case 'call': {
        const fn = mine(msg.fn, 'a function');
        if (typeof fn !== 'function') throw violation('a call of something that is not a function');
        seen.args = list(msg.args).map((a) => decode(a));
        return invoke(fn, decode(msg.self), seen.args);
      }
      case 'new': {
        const fn = mine(msg.fn, 'a function');
        if (typeof fn !== 'function') throw violation('a construction of something that is not a function');
        seen.args = list(msg.args).map((a) => decode(a));
        return Reflect.construct(fn, seen.args);
      }
      case 'get': {
        const obj = mine(msg.id, 'an object');
        if (!safeKey(key) || !allowedOwner(obj, key)) return undefined;
        return obj[key];
      }
      case 'set': {
        const obj = mine(msg.id, 'an object');
        if (!safeKey(key)) return false;
        return Reflect.set(obj, key, decode(msg.value));
      }
      case 'has': {
        const obj = mine(msg.id, 'an object');
        return safeKey(key) && key in obj && allowedOwner(obj, key);
      }
      case 'delete':
        return safeKey(key) && Reflect.deleteProperty(mine(msg.id, 'an object'), key);
      case 'keys':
        return Reflect.ownKeys(mine(msg.id, 'an object')).filter((k) => typeof k === 'string');
      case 'desc': {
        const obj = mine(msg.id, 'an object');
        if (!safeKey(key)) return undefined;
        const d = Object.getOwnPropertyDescriptor(obj, key);
        return d ? { value: 'value' in d ? d.value : obj[key], enumerable: d.enumerable } : undefined;
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
        const pick = o.globals?.[String(msg.name)];
        if (!pick) throw violation(`a request for global ${String(msg.name).slice(0, 40)}`);
        const [fn, self] = pick();
        return invoke(
          fn,
          self,
          list(msg.args).map((a) => decode(a)),
        );
      }
      default:
        throw violation(`a request of unknown kind ${String(msg.t).slice(0, 40)}`);
    }
  }

  /** Every incoming message, in order (called by the channel, also while a call waits). */
  function receive(msg) {
    try {
      switch (msg.t) {
        case 'reply':
          if (typeof msg.call !== 'number' || msg.call >= nextCall || replies.has(msg.call)) throw violation('an answer to a call that was never made');
          replies.set(msg.call, { ok: msg.ok === true, value: decode(msg.value), wb: msg.wb });
          return;
        case 'settle': {
          const p = promises.get(msg.id);
          if (!p) throw violation('a promise settled that was never sent');
          promises.delete(msg.id);
          if (msg.ok === true) p.resolve(decode(msg.value));
          else p.reject(decode(msg.value));
          return;
        }
        case 'abort': {
          const c = signals.get(msg.id);
          if (!c) throw violation('an abort of a signal that was never sent');
          c.abort(decode(msg.reason));
          return;
        }
        case 'closed':
          shutdown(String(msg.why ?? 'closed'));
          return;
        case 'unhandled':
          if (!o.onUnhandled) throw violation("an unhandled rejection sent to the learner's side");
          o.onUnhandled(decode(msg.reason));
          return;
        case 'notify': {
          // A call the other side made and answered itself (a clock read), made here too for whoever watches.
          const pick = o.globals?.[String(msg.name)];
          if (!pick || msg.name === 'performance.timeOrigin') throw violation(`a notice of global ${String(msg.name).slice(0, 40)}`);
          const [fn, self] = pick();
          try {
            invoke(fn, self, []);
          } catch {
            // the value was not needed; a throwing wrapper is the suite's business
          }
          return;
        }
        case 'bad':
          throw violation(String(msg.why));
        default:
          if (isBridgeMessage(msg)) httpBridge.receive(msg);
          else answer(msg);
      }
    } catch (error) {
      if (error instanceof ProtocolViolation && o.guard) shutdown(error.message);
      else if (msg.call !== undefined && msg.t !== 'reply') post({ t: 'reply', call: msg.call, ok: false, value: encodeSafely(error) });
    }
  }

  function shutdown(why) {
    if (closed) return;
    closed = why;
    for (const p of promises.values()) p.reject(closedError());
    promises.clear();
    httpBridge.closeAll();
  }

  return {
    receive,
    request,
    notify: (name) => post({ t: 'notify', name }),
    unhandled: (reason) => post({ t: 'unhandled', reason: encodeSafely(reason) }),
    /** A stand-in this end made for something of the other end (a promise, a function…). */
    isMirror: (value) => (typeof value === 'object' || typeof value === 'function') && value !== null && mirrorId.has(value),
    encode,
    decode,
    shutdown,
    /** The learner's end: a socket to a loopback port, connected from the tests' process (http-bridge.mjs). */
    dial: httpBridge.dial,
    get closed() {
      return closed;
    },
  };
}
