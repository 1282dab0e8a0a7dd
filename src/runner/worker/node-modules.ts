/**
 * The Node built-in modules a learner's file may import in the page: `node:timers` and
 * `node:timers/promises` (a sleep is the one Node module these exercises call for). Each is served to
 * the learner's module from a blob: module that re-exports these implementations; any other module
 * the learner imports fails to load with a message saying why, as an unknown module does in Node.
 */

type Fn = (...args: never[]) => unknown;

/** Node's AbortError (an Error, not a DOMException), with the signal's reason as its cause. */
class AbortError extends Error {
  code = 'ABORT_ERR';
  constructor(cause: unknown) {
    super('The operation was aborted', { cause });
    this.name = 'AbortError';
  }
}

interface Options {
  signal?: AbortSignal;
  ref?: boolean;
}

/** A promise that settles like Node's timers/promises: `value` after `start`, AbortError on abort. */
function abortable<T>(start: (done: () => void) => { unref?(): unknown }, stop: (h: unknown) => void, value: T, options: Options = {}): Promise<T> {
  const { signal, ref = true } = options ?? {};
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError(signal.reason));
    const onAbort = () => {
      stop(handle);
      reject(new AbortError(signal!.reason));
    };
    const handle = start(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    });
    if (!ref) handle.unref?.();
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

// Each call reads the global timers at call time, so the suites' timer watchers see these timers too.
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

/** Module specifier (without `node:`) → its exports. */
export const NODE_MODULES: Record<string, Record<string, unknown>> = { timers, 'timers/promises': timersPromises };
export const NODE_MODULES_GLOBAL = '__courseNodeModules';

/** ES module text that re-exports one of NODE_MODULES (read from the worker's global). */
export function nodeModuleSource(name: string): string {
  const names = Object.keys(NODE_MODULES[name]!);
  const lines = names.map((n) => `export const ${n} = m[${JSON.stringify(n)}];`);
  return `const m = globalThis.${NODE_MODULES_GLOBAL}[${JSON.stringify(name)}];\n${lines.join('\n')}\nexport default m;\n`;
}

/** The specifier of a static `import … from '…'`, `export … from '…'` or `import '…'` at the start of a line. */
const SPECIFIER = /^(\s*(?:import|export)\b[^'"]*?\bfrom\s*|\s*import\s*)(['"])([^'"]+)\2/gm;

/**
 * Points the learner's imports of the modules above at `urls[name]`; any other import (another Node
 * module, a package, another file) throws a load error that names it, as Node's ERR_MODULE_NOT_FOUND does.
 */
export function linkImports(code: string, file: string, urls: Record<string, string>): string {
  return code.replace(SPECIFIER, (_whole, head: string, quote: string, spec: string) => {
    const name = spec.replace(/^node:/, '');
    const url = urls[name];
    if (url) return `${head}${quote}${url}${quote}`;
    throw Object.assign(
      new Error(
        `Cannot find module '${spec}' imported from src/${file}: code graded in the page can import only node:timers and node:timers/promises. Grade it with the local runner (npm start) or npm run check.`,
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    );
  });
}
