// @ts-check
// The stand-ins one end makes for what the other end handed out (./README.md, "Copies and handles"):
// a function that calls across, a promise and a signal that settle and abort when the originals do,
// an error built on its class, a Request or Response whose body is read across only when read here,
// and a Proxy for an object with behaviour, which reads across what did not come with it.
import { LIMIT_ERROR } from './wire.mjs';

/** @typedef {import('./wire.mjs').Untrusted} Untrusted */
/** @typedef {import('./wire.mjs').Request} Request */

const ERROR_CLASSES = /** @type {Record<string, ErrorConstructor>} */ ({ Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError });

/**
 * @param {{
 *   guard: boolean,
 *   handles: import('./handles.mjs').Handles,
 *   codec: import('./codec.mjs').Codec,
 *   request(msg: Request, args?: unknown[]): unknown,
 *   violation(why: string): Error,
 *   onLimit(why: string): void,
 *   closedError(): Error | undefined,
 *   standIn(srv: number): object,
 * }} o closedError: why the other end can no longer be reached, once it cannot; standIn: the tests'
 *   stand-in server for the learner's server `srv` (http-bridge.mjs)
 */
export function createMirrors(o) {
  const { handles, codec, request } = o;
  const { cached } = handles;
  /** @type {Map<unknown, { values: Map<string, unknown>, all: boolean }>} the other end's id -> what may be read of it without asking */
  const knownOf = new Map();
  /** @type {Map<unknown, AbortController>} the other end's signal id -> the controller of its mirror */
  const signals = new Map();
  /** @type {Map<unknown, { resolve(v: unknown): void, reject(e: unknown): void }>} the other end's promise id -> its mirror's settle */
  const promises = new Map();

  /** The mirror for a handle of the other end (a wire value of a handle kind: codec.mjs). @param {Untrusted} x @param {number} depth */
  function make(x, depth) {
    switch (x.$) {
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
      case 'r':
        return objectMirror(x, depth);
      case 'srv':
        if (!o.guard) throw o.violation('a server sent to the learner');
        return cached(x.id, () => o.standIn(x.id));
      default:
        throw o.violation(`a value of unknown kind ${JSON.stringify(String(x.$)).slice(0, 40)}`);
    }
  }

  /** @param {Untrusted} x */
  function fnMirror(x) {
    return cached(x.id, () => {
      const id = x.id;
      /** @this {unknown} @param {unknown[]} args */
      const m = function (...args) {
        return new.target
          ? request({ t: 'new', fn: id, args: args.map((a) => codec.encode(a)) }, args)
          : request({ t: 'call', fn: id, self: codec.encode(this), args: args.map((a) => codec.encode(a)) }, args);
      };
      Object.defineProperty(m, 'name', { value: String(x.name ?? '') });
      Object.defineProperty(m, 'length', { value: Number(x.length) || 0 });
      if (x.errorClass) m.prototype = Object.create(Error.prototype, { constructor: { value: m, writable: true, configurable: true } });
      return m;
    });
  }

  /** @param {unknown} id */
  function promiseMirror(id) {
    return cached(id, () => {
      /** @type {{ resolve(v: unknown): void, reject(e: unknown): void }} */
      let settle = { resolve() {}, reject() {} };
      const p = new Promise((resolve, reject) => (settle = { resolve, reject }));
      promises.set(id, settle);
      const closed = o.closedError();
      if (closed) settle.reject(closed);
      return p;
    });
  }

  /** @param {Untrusted} x */
  function signalMirror(x) {
    return cached(x.id, () => {
      const c = new AbortController();
      signals.set(x.id, c);
      if (x.aborted) c.abort(codec.decode(x.reason));
      return c.signal;
    });
  }

  /** @param {Untrusted} x @param {number} depth */
  function errorMirror(x, depth) {
    if (x.again) {
      if (!handles.hasMirror(x.id)) throw o.violation('a repeated error that was never sent');
      return handles.mirror(x.id);
    }
    if (handles.hasMirror(x.id)) return handles.mirror(x.id);
    const Cls = handles.classOf(x.cls);
    const message = String(x.message ?? '');
    // In fixed words: the message is the other end's, which may say anything.
    if (o.guard && x.name === LIMIT_ERROR) o.onLimit("a value over the protocol's size limit");
    /** @type {Error} */
    let e;
    if (Cls?.prototype) e = Object.create(Cls.prototype);
    else if (x.kind === 'DOMException' && typeof DOMException !== 'undefined') e = new DOMException(message, String(x.name));
    else e = Object.create((ERROR_CLASSES[x.kind] ?? ERROR_CLASSES[x.name] ?? Error).prototype);
    handles.remember(x.id, e);
    if (!(e instanceof DOMException)) {
      Object.defineProperty(e, 'message', { value: message, writable: true, configurable: true });
      if (e.name !== String(x.name)) Object.defineProperty(e, 'name', { value: String(x.name), writable: true, configurable: true });
    }
    Object.defineProperty(e, 'stack', { value: String(x.stack ?? ''), writable: true, configurable: true });
    const props = x.props && typeof x.props === 'object' ? x.props : {};
    for (const key of Object.keys(props)) {
      if (!codec.safeKey(key) || key === 'name') continue;
      Object.defineProperty(e, key, { value: codec.decode(props[key], depth + 1), enumerable: key !== 'cause', writable: true, configurable: true });
    }
    return e;
  }

  /**
   * A body that is read from the other side only when this copy's body is read (an unread body
   * stays unread there too). @param {unknown} id
   */
  function lazyBody(id) {
    return new ReadableStream(
      {
        pull: async (controller) => {
          const bytes = await request({ t: 'body', id: /** @type {number} */ (id) });
          if (bytes instanceof Uint8Array && bytes.byteLength) controller.enqueue(bytes);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** @param {Untrusted} x @returns {string[][]} */
  const headerList = (x) => codec.list(x.headers).map((p) => codec.list(p).map(String));

  /** @param {Untrusted} x */
  function requestMirror(x) {
    return cached(x.id, () => {
      const method = String(x.method ?? 'GET');
      /** @type {RequestInit & { duplex?: 'half' }} */
      const init = {
        method,
        headers: /** @type {[string, string][]} */ (headerList(x)),
        signal: /** @type {AbortSignal | null} */ (codec.decode(x.signal)),
        redirect: /** @type {RequestInit["redirect"]} */ (String(x.redirect ?? 'follow')),
      };
      if (x.body && method !== 'GET' && method !== 'HEAD') Object.assign(init, { body: lazyBody(x.id), duplex: 'half' });
      return new Request(String(x.url), init);
    });
  }

  /** @param {Untrusted} x */
  function responseMirror(x) {
    return cached(x.id, () => {
      const body = x.body ? lazyBody(x.id) : null;
      const status = Number(x.status);
      const init = {
        status: status >= 200 && status <= 599 ? status : 200,
        statusText: String(x.statusText ?? ''),
        headers: /** @type {[string, string][]} */ (headerList(x)),
      };
      return new Response(body, init);
    });
  }

  /** What arrived with a handle (codec.mjs's knownFields): key -> value, read without asking. @param {Untrusted} x @param {number} depth */
  function learnKnown(x, depth) {
    const values = new Map();
    for (const part of [x.m, x.f]) {
      if (part === undefined) continue;
      if (!part || typeof part !== 'object' || Array.isArray(part)) throw o.violation('known fields that are not an object');
      for (const key of Object.keys(part)) if (codec.safeKey(key)) values.set(key, codec.decode(part[key], depth + 1));
    }
    return { values, all: x.all === true };
  }

  /** @param {Untrusted} x @param {number} depth */
  function objectMirror(x, depth) {
    const fresh = learnKnown(x, depth);
    if (handles.hasMirror(x.id)) {
      knownOf.set(x.id, fresh);
      return handles.mirror(x.id);
    }
    knownOf.set(x.id, fresh);
    return cached(x.id, () => {
      const id = /** @type {number} */ (x.id);
      const forget = () => knownOf.set(id, { values: new Map(), all: false });
      /** @param {string} k */
      const read = (k) => {
        const { values, all } = /** @type {{ values: Map<string, unknown>, all: boolean }} */ (knownOf.get(id));
        if (values.has(k)) return values.get(k);
        return all ? undefined : request({ t: 'get', id, key: k });
      };
      const Cls = handles.classOf(x.cls);
      const target = Cls?.prototype ? Object.create(Cls.prototype) : {};
      // A timer of the other end converts to its number, as a Node timer does (`clearTimeout(+t)`).
      // Configurable, so the ownKeys trap below need not list it.
      const prim = x.prim;
      if (typeof prim === 'number' && Number.isFinite(prim)) Object.defineProperty(target, Symbol.toPrimitive, { value: () => prim, configurable: true });
      /** @param {string | symbol} k */
      const local = (k) =>
        typeof k === 'symbol' ||
        k === 'toString' ||
        k === 'valueOf' ||
        k === 'toLocaleString' ||
        k === 'hasOwnProperty' ||
        k === 'isPrototypeOf' ||
        k === 'propertyIsEnumerable';
      const { safeKey } = codec;
      return new Proxy(target, {
        get: (t, k, receiver) => (local(k) ? Reflect.get(t, k, receiver) : safeKey(k) ? read(k) : undefined),
        set: (_t, k, v) => {
          forget();
          return safeKey(k) ? request({ t: 'set', id, key: k, value: codec.encode(v) }) === true : false;
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
          const d = /** @type {{ value?: unknown, enumerable?: unknown } | null | undefined} */ (request({ t: 'desc', id, key: k }));
          return d && typeof d === 'object' ? { value: d.value, enumerable: d.enumerable === true, writable: true, configurable: true } : undefined;
        },
        defineProperty: () => false,
        setPrototypeOf: () => false,
      });
    });
  }

  return {
    make,
    /** The mirror of the other end's promise `id`, to settle now (it settles once). @param {unknown} id */
    takePromise(id) {
      const p = promises.get(id);
      promises.delete(id);
      return p;
    },
    /** The controller of the mirror of the other end's signal `id`. @param {unknown} id */
    signal: (id) => signals.get(id),
    /** The other end is gone: every promise of it still pending rejects, each with an error of its own. @param {() => Error} error */
    rejectAll(error) {
      for (const p of promises.values()) p.reject(error());
      promises.clear();
    },
  };
}

/** @typedef {ReturnType<typeof createMirrors>} Mirrors */
