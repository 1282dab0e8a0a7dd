/**
 * Where browser engines differ from Node's V8 in ways the suites (written for Node) can see, made to
 * behave as in Node inside the grading worker. Chromium needs nothing here; Firefox and WebKit:
 * - Error stacks. V8 writes "Error: message" and then one "    at fn (file:line:col)" line per frame;
 *   SpiderMonkey and JavaScriptCore write "fn@file:line:col" lines with no first line. A suite that
 *   finds the caller of a function as `stack.split('\n')[2]` (retry-helper's R16) read the caller's
 *   caller there, and failed correct code. Stacks are rewritten to V8's shape, frames of a learner's
 *   module named by its sandbox path (as the Node grader names them).
 * - Request.body, which Firefox does not have: code that reads a request's body as a stream
 *   (retry-helper's R5 reads what each attempt sent) saw no body at all.
 * Both are detected, not assumed from the user agent.
 */

export const isV8Stack = (stack: string) => /^\s+at /m.test(stack);

/** `fn@url:line:col` (SpiderMonkey, JavaScriptCore), with an optional `async*` in front. */
const FRAME = /^(async\*)?(?:(.*?)@)?(.*):(\d+):(\d+)$/;

function frameName(raw: string | undefined): string {
  if (!raw || raw === 'global code' || raw === 'module code') return '';
  // SpiderMonkey names inner functions by their path ("outer/inner<"): V8 gives the last part.
  return (
    raw
      .split('/')
      .filter((p) => p && p !== '<')
      .at(-1)
      ?.replace(/<+$/, '') ?? ''
  );
}

/** A stack in V8's shape; a stack already in it is returned as it is. */
export function toV8Stack(error: { name?: unknown; message?: unknown }, stack: string, mapUrl: (url: string) => string = (u) => u): string {
  if (isV8Stack(stack)) return stack;
  const name = String(error.name ?? 'Error');
  const message = String(error.message ?? '');
  const frames = stack
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      if (line.includes('[native code]')) return `    at ${frameName(line.split('@')[0]) || '<anonymous>'} (<anonymous>)`;
      const m = FRAME.exec(line.trim());
      if (!m) return `    at ${line.trim()}`;
      const [, async, fn, url, row, col] = m;
      const where = `${mapUrl(url!)}:${row}:${col}`;
      const label = frameName(fn);
      return `    at ${async ? 'async ' : ''}${label ? `${label} (${where})` : where}`;
    });
  return [message ? `${name}: ${message}` : name, ...frames].join('\n');
}

type ErrorCtor = ErrorConstructor & Record<string, unknown>;
const ERROR_CLASSES = ['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError'] as const;

/** Makes every Error's `stack` V8-shaped in this global scope. `mapUrl` names frames (blob: URL → sandbox path). */
export function installV8Stacks(scope: Record<string, unknown>, mapUrl: (url: string) => string): void {
  const Real = scope.Error as ErrorCtor;
  const probe = new Real('probe').stack;
  if (typeof probe !== 'string' || isV8Stack(probe)) return;
  const accessor = Object.getOwnPropertyDescriptor(Real.prototype, 'stack');
  if (accessor?.get) {
    // SpiderMonkey: `stack` is an accessor on Error.prototype, so every error (thrown by the engine too) is covered.
    const get = accessor.get;
    const written = new WeakMap<object, string>();
    Object.defineProperty(Real.prototype, 'stack', {
      configurable: true,
      get(this: Error) {
        const raw = get.call(this) as unknown;
        if (typeof raw !== 'string') return raw;
        let v8 = written.get(this);
        if (v8 === undefined) written.set(this, (v8 = toV8Stack(this, raw, mapUrl)));
        return v8;
      },
      set(this: Error, value: unknown) {
        Object.defineProperty(this, 'stack', { value, writable: true, configurable: true, enumerable: false });
      },
    });
    return;
  }
  // JavaScriptCore: each error gets its own `stack` when it is made, so the constructors are wrapped.
  // The wrapper's own frames (the first ones, from this file) are left out, as V8 leaves out its own.
  const here = /@(.*):\d+:\d+/.exec(new Real().stack?.split('\n')[0] ?? '')?.[1];
  const fix = (e: unknown) => {
    if (!(e instanceof Real) || typeof e.stack !== 'string') return e;
    const lines = e.stack.split('\n');
    const ours = (l: string) => l.includes('[native code]') || (here !== undefined && /^(construct|apply)@/.test(l) && l.includes(here));
    while (lines.length && ours(lines[0]!)) lines.shift();
    Object.defineProperty(e, 'stack', { value: toV8Stack(e, lines.join('\n'), mapUrl), writable: true, configurable: true, enumerable: false });
    return e;
  };
  for (const name of ERROR_CLASSES) {
    const Ctor = scope[name] as ErrorCtor | undefined;
    if (typeof Ctor !== 'function') continue;
    const wrapped: ErrorCtor = new Proxy(Ctor, {
      construct: (target, args, newTarget) => fix(Reflect.construct(target, args, newTarget === wrapped ? target : newTarget)) as object,
      apply: (target, self, args) => fix(Reflect.apply(target, self, args)),
    });
    // `err.constructor === Error` holds as in Node, and `new err.constructor()` is wrapped too.
    Object.defineProperty(Ctor.prototype, 'constructor', { value: wrapped, writable: true, configurable: true, enumerable: false });
    scope[name] = wrapped;
  }
}

/** Gives Request a `body` stream where the engine has none (Firefox), read from the request only when read. */
export function installRequestBody(scope: Record<string, unknown>, native = 'body' in ((scope.Request as typeof Request | undefined)?.prototype ?? {})): void {
  const Real = scope.Request as typeof Request | undefined;
  if (!Real || native) return;
  const withBody = new WeakSet<Request>();
  const streams = new WeakMap<Request, ReadableStream<Uint8Array>>();
  const arrayBuffer = Real.prototype.arrayBuffer;
  const clone = Real.prototype.clone;
  const wrapped: typeof Request = new Proxy(Real, {
    construct(target, args, newTarget): Request {
      const [input, init] = args as [unknown, RequestInit | undefined];
      const req = Reflect.construct(target, args, newTarget === wrapped ? target : newTarget) as Request;
      const given = init && 'body' in init ? init.body !== null && init.body !== undefined : input instanceof Real && withBody.has(input);
      if (given) withBody.add(req);
      return req;
    },
  });
  Object.defineProperty(Real.prototype, 'body', {
    configurable: true,
    get(this: Request) {
      if (!withBody.has(this)) return null;
      let s = streams.get(this);
      if (!s) {
        const req = this;
        s = new ReadableStream<Uint8Array>(
          {
            async pull(c) {
              c.enqueue(new Uint8Array(await arrayBuffer.call(req)));
              c.close();
            },
          },
          { highWaterMark: 0 },
        );
        streams.set(this, s);
      }
      return s;
    },
  });
  Real.prototype.clone = function (this: Request) {
    const copy = clone.call(this);
    if (withBody.has(this)) withBody.add(copy);
    return copy;
  };
  Object.defineProperty(Real.prototype, 'constructor', { value: wrapped, writable: true, configurable: true, enumerable: false });
  scope.Request = wrapped;
}

type Result<T> = IteratorResult<T, unknown>;

/**
 * ReadableStream's async iteration (`for await (const chunk of response.body)`, `values()`), which
 * WebKit's ReadableStream does not have, so such code threw only there. As the Streams standard
 * defines it: the iterator holds the stream's reader; next() calls run one after another; the end
 * or an error releases the reader; return() (a `break`) cancels the stream, unless
 * `values({ preventCancel: true })`, and releases it either way.
 */
export function installStreamIteration(scope: Record<string, unknown>): void {
  const proto = (scope.ReadableStream as typeof ReadableStream | undefined)?.prototype as unknown as Record<PropertyKey, unknown> | undefined;
  if (!proto || typeof proto[Symbol.asyncIterator] === 'function') return;
  const asyncIteratorPrototype: object = Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}).prototype);
  function values<T>(this: ReadableStream<T>, options?: { preventCancel?: boolean } | null) {
    if (options !== undefined && options !== null && typeof options !== 'object')
      throw new TypeError("Failed to execute 'values' on 'ReadableStream': parameter 1 is not of type 'ReadableStreamIteratorOptions'.");
    const preventCancel = Boolean(options?.preventCancel);
    const reader = this.getReader();
    let finished = false;
    let released = false;
    let ongoing: Promise<Result<T>> | undefined;
    const release = () => {
      if (!released) reader.releaseLock();
      released = true;
    };
    const nextSteps = async (): Promise<Result<T>> => {
      if (finished) return { value: undefined, done: true };
      try {
        const r = await reader.read();
        if (!r.done) return { value: r.value, done: false };
        finished = true;
        release();
        return { value: undefined, done: true };
      } catch (e) {
        finished = true;
        release();
        throw e;
      } finally {
        ongoing = undefined;
      }
    };
    const returnSteps = async (value: unknown): Promise<Result<T>> => {
      if (finished) return { value, done: true };
      finished = true;
      if (!released) {
        const cancelled = preventCancel ? undefined : reader.cancel(value);
        release();
        await cancelled;
      }
      return { value, done: true };
    };
    const iterator = Object.create(asyncIteratorPrototype) as AsyncIterableIterator<T>;
    Object.defineProperties(iterator, {
      next: {
        value: () => (ongoing = ongoing ? ongoing.then(nextSteps, nextSteps) : nextSteps()),
        writable: true,
        configurable: true,
      },
      return: {
        value: (value?: unknown) =>
          ongoing
            ? ongoing.then(
                () => returnSteps(value),
                () => returnSteps(value),
              )
            : returnSteps(value),
        writable: true,
        configurable: true,
      },
    });
    return iterator;
  }
  // As in the standard (and in Chromium and Firefox), values and @@asyncIterator are one function.
  for (const key of ['values', Symbol.asyncIterator])
    Object.defineProperty(proto, key, { value: values, writable: true, configurable: true, enumerable: false });
}
