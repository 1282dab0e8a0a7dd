/**
 * The Node built-in modules code graded in the page may import: timers, timers/promises, http, net
 * (its socket class and address checks), events (events.ts), stream, stream/promises, buffer, crypto (its
 * random functions and webcrypto), url and util (promisify, format). Each is served to the learner's
 * module from a blob: module that re-exports it; any other import fails to load with a message that
 * names it and says where the code can run, as an unknown module fails in Node.
 */
import { Buffer } from 'buffer';
import readableStream from 'readable-stream';
import { format } from '@vitest/utils/display';
import { AbortError, eventsModule } from './events.ts';
import type { NodeHttp } from './http/index.ts';
import type { Handles } from './runtime.ts';
import { NODE_MODULES_GLOBAL } from '../suite-paths.ts';

type Fn = (...args: never[]) => unknown;

// readable-stream is Node's own stream code; its types are Node's.
const stream = readableStream as unknown as typeof import('node:stream');

interface Options {
  signal?: AbortSignal;
  ref?: boolean;
}

/** A promise that settles like Node's timers/promises: `value` after `start`, AbortError on abort. */
function abortable<T>(start: (done: () => void) => { unref?(): unknown }, stop: (h: unknown) => void, value: T, options: Options = {}): Promise<T> {
  const { signal, ref = true } = options ?? {};
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(undefined, { cause: signal.reason }));
    const onAbort = () => {
      stop(handle);
      reject(new AbortError(undefined, { cause: signal!.reason }));
    };
    const handle = start(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (!ref) handle.unref?.();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Each call reads the global timers at call time, so the suites' timer watchers (and fake timers)
// see these timers too, as they see the globals: in Node, node:timers and the globals are one.
const g = globalThis as unknown as Record<string, Fn>;
const call =
  (name: string) =>
  (...args: unknown[]) =>
    (g[name] as (...a: unknown[]) => unknown)(...args);

const timersPromises = {
  setTimeout: <T>(delay?: number, value?: T, options?: Options) =>
    abortable((done) => g.setTimeout!(done as never, delay as never) as { unref?(): unknown }, call('clearTimeout'), value, options),
  setImmediate: <T>(value?: T, options?: Options) =>
    abortable((done) => g.setImmediate!(done as never) as { unref?(): unknown }, call('clearImmediate'), value, options),
  scheduler: {
    wait: (delay: number, options?: Options) => timersPromises.setTimeout(delay, undefined, options),
    yield: () => timersPromises.setImmediate(),
  },
};

const timers = {
  setTimeout: call('setTimeout'),
  clearTimeout: call('clearTimeout'),
  setInterval: call('setInterval'),
  clearInterval: call('clearInterval'),
  setImmediate: call('setImmediate'),
  clearImmediate: call('clearImmediate'),
  promises: timersPromises,
};

function randomBytes(n: number): Buffer {
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i += 65536) crypto.getRandomValues(out.subarray(i, Math.min(n, i + 65536)));
  return out;
}

/** crypto.randomUUID, also where the page is not a secure context (the browser's needs one). */
function randomUUID(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const nodeCrypto = {
  randomUUID,
  randomBytes,
  randomInt(min: number, max?: number): number {
    if (max === undefined) [min, max] = [0, min];
    return min + Math.floor((crypto.getRandomValues(new Uint32Array(1))[0]! / 2 ** 32) * (max - min));
  },
  getRandomValues: <T extends ArrayBufferView | null>(a: T) => crypto.getRandomValues(a as never) as T,
  webcrypto: crypto,
  subtle: crypto.subtle,
};

function promisify(fn: (...args: unknown[]) => void) {
  return (...args: unknown[]) => new Promise((resolve, reject) => fn(...args, (err: unknown, value: unknown) => (err ? reject(err) : resolve(value))));
}

type HookCallbacks = { init?(id: number, type: string, trigger: number, resource: object): void; destroy?(id: number): void };

/**
 * node:async_hooks' createHook, for the resources the page's runtime has: its handles (timers,
 * servers, sockets), each with an async id, `init` when one starts and `destroy` when it fires, is
 * cleared or closed. Enough for a rule that follows every timer made while some code runs (fan-out's
 * F10); promises and other async resources are not reported.
 */
function asyncHooks(handles: Handles) {
  const ids = new WeakMap<object, number>();
  let next = 1;
  const idOf = (h: object) => {
    let id = ids.get(h);
    if (id === undefined) ids.set(h, (id = next++));
    return id;
  };
  return {
    createHook(callbacks: HookCallbacks) {
      let stop: (() => void) | undefined;
      const hook = {
        enable() {
          stop ??= handles.watch({
            init: (h) => callbacks.init?.(idOf(h), h.resourceType, 0, h),
            destroy: (h) => callbacks.destroy?.(idOf(h)),
          });
          return hook;
        },
        disable() {
          stop?.();
          stop = undefined;
          return hook;
        },
      };
      return hook;
    },
  };
}

/** Module specifier (without `node:`) → its exports, for one runtime (whose handles async_hooks reports). */
export function nodeModules(net: NodeHttp, handles: Handles): Record<string, Record<string, unknown>> {
  const { Readable, Writable, Duplex, Transform, PassThrough, Stream, pipeline, finished, addAbortSignal } = stream;
  const streamModule = {
    Readable,
    Writable,
    Duplex,
    Transform,
    PassThrough,
    Stream,
    pipeline,
    finished,
    addAbortSignal,
    promises: stream.promises,
    default: Stream,
  };
  return {
    timers,
    'timers/promises': timersPromises,
    http: net.http,
    net: net.net,
    events: eventsModule,
    stream: streamModule,
    'stream/promises': { pipeline: stream.promises.pipeline, finished: stream.promises.finished },
    buffer: { Buffer },
    crypto: nodeCrypto,
    url: { URL, URLSearchParams },
    util: { promisify, format, TextEncoder, TextDecoder },
    async_hooks: asyncHooks(handles),
  };
}

/** ES module text that re-exports one module (read from the worker's global registry). */
export function nodeModuleSource(name: string, exports: Record<string, unknown>): string {
  const names = Object.keys(exports).filter((n) => n !== 'default' && /^[A-Za-z_$][\w$]*$/.test(n));
  const lines = names.map((n) => `export const ${n} = m[${JSON.stringify(n)}];`);
  const fallback = 'default' in exports ? 'm.default' : 'm';
  return `const m = globalThis.${NODE_MODULES_GLOBAL}[${JSON.stringify(name)}];\n${lines.join('\n')}\nexport default ${fallback};\n`;
}

/** The specifier of a static `import … from '…'`, `export … from '…'` or `import '…'` at the start of a line. */
const SPECIFIER = /^(\s*(?:import|export)\b[^'"]*?\bfrom\s*|\s*import\s*)(['"])([^'"]+)\2/gm;

/**
 * Points the learner's imports at `urls[name]`: a Node module by its name (`node:` optional), another
 * learner file by its path (`./chain.ts` → `chain.ts`; `../src/chain.ts` from a script beside tests/). Any other import (a package, a module the
 * page does not have) throws a load error that names it, as Node's ERR_MODULE_NOT_FOUND does.
 */
export function linkImports(code: string, file: string, urls: Record<string, string>): string {
  return code.replace(SPECIFIER, (_whole, head: string, quote: string, spec: string) => {
    const name = spec.replace(/^(\.\/|\.\.\/src\/|node:)/, '');
    const url = urls[name];
    if (url) return `${head}${quote}${url}${quote}`;
    throw Object.assign(
      new Error(
        `Cannot find module '${spec}' imported from src/${file}: code graded in the page can import only the Node modules ${Object.keys(urls)
          .filter((n) => !n.includes('.'))
          .map((n) => `node:${n}`)
          .join(', ')} and the exercise's own files. Grade it with the local runner (npm start) or npm run check.`,
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  });
}

/** Learner files in an order where each comes after the files it imports (a cycle is refused, with the files named). */
export function loadOrder(files: Record<string, string>, importsOf: (code: string) => string[]): string[] {
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (path: string, chain: string[]) => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'visiting') {
      throw Object.assign(
        new Error(
          `src/${path} imports itself through ${[...chain, path].map((p) => `src/${p}`).join(' → ')}: code graded in the page cannot have import cycles`,
        ),
        {
          code: 'ERR_REQUIRE_CYCLE_MODULE',
        },
      );
    }
    state.set(path, 'visiting');
    for (const dep of importsOf(files[path]!)) if (dep in files) visit(dep, [...chain, path]);
    state.set(path, 'done');
    order.push(path);
  };
  for (const path of Object.keys(files)) visit(path, []);
  return order;
}

/** The learner files a module imports (`./x.ts` → `x.ts`). */
export function localImports(code: string): string[] {
  return [...code.matchAll(SPECIFIER)]
    .map((m) => m[3]!)
    .filter((s) => s.startsWith('./'))
    .map((s) => s.slice(2));
}
