import { describe, expect, test } from 'vitest';
import { createNodeHttp } from './http/index.ts';
import { linkImports, loadOrder, localImports, nodeModules, nodeModuleSource } from './modules.ts';
import { createRuntime, Handles } from './runtime.ts';
import { WORKER_NODE_MODULES } from '../suite-paths.ts';

const urls = { timers: 'blob:timers', 'timers/promises': 'blob:tp', http: 'blob:http', 'chain.ts': 'blob:chain' };
const runtime = createRuntime();
const modules = nodeModules(createNodeHttp(runtime, fetch), runtime.handles);

describe('Node modules in the page', () => {
  test('imports of Node modules and of the exercise’s own files are linked; comments and strings are left alone', () => {
    const code =
      "import { setTimeout as delay } from 'node:timers/promises';\nimport {\n  setTimeout,\n} from \"timers\";\nimport http from 'node:http';\nimport { sendJson } from './chain.ts';\n// fetch it from 'somewhere' later\nconst s = \"import 'x'\";\n";
    const linked = linkImports(code, 'retry.ts', urls);
    expect(linked).toContain("from 'blob:tp'");
    expect(linked).toContain('from "blob:timers"');
    expect(linked).toContain("http from 'blob:http'");
    expect(linked).toContain("from 'blob:chain'");
    expect(linked).toContain("from 'somewhere' later");
  });

  test('any other import fails to load with a message that names it and says where it can run', () => {
    expect(() => linkImports("import { readFileSync } from 'node:fs';\n", 'retry.ts', urls)).toThrow(
      /Cannot find module 'node:fs' imported from src\/retry\.ts.*node:http.*npm run check/,
    );
    expect(() => linkImports("import './other.ts';\n", 'retry.ts', urls)).toThrow(expect.objectContaining({ code: 'ERR_MODULE_NOT_FOUND' }));
  });

  test('learner files load after the files they import; a cycle is refused with the files named', () => {
    const files = {
      'a.ts': "import { x } from './chain.ts';\nimport { y } from './b.ts';",
      'b.ts': "import { x } from './chain.ts';",
      'chain.ts': 'export const x = 1;',
    };
    expect(loadOrder(files, localImports)).toEqual(['chain.ts', 'b.ts', 'a.ts']);
    expect(() => loadOrder({ 'a.ts': "import './b.ts';", 'b.ts': "import './a.ts';" }, localImports)).toThrow(
      /src\/a\.ts imports itself through src\/a\.ts → src\/b\.ts → src\/a\.ts/,
    );
  });

  test('timers/promises.setTimeout resolves with its value, and rejects with an AbortError when its signal aborts', async () => {
    const tp = modules['timers/promises'] as { setTimeout: (d: number, v?: unknown, o?: { signal?: AbortSignal }) => Promise<unknown> };
    expect(await tp.setTimeout(5, 'done')).toBe('done');
    const controller = new AbortController();
    const waiting = tp.setTimeout(10_000, 'never', { signal: controller.signal });
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: new Error('client went away') });
    await expect(tp.setTimeout(5, 'x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('crypto.randomUUID gives version-4 UUIDs; events, stream and buffer are the Node ports', () => {
    const crypto = modules.crypto as { randomUUID(): string; randomInt(a: number, b: number): number };
    expect(crypto.randomUUID()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const n = crypto.randomInt(3, 5);
    expect(n === 3 || n === 4).toBe(true);
    expect(typeof (modules.events as { once: unknown }).once).toBe('function');
    expect(typeof (modules.stream as { Readable: unknown }).Readable).toBe('function');
    expect((modules.buffer as { Buffer: { from(s: string): { toString(e: string): string } } }).Buffer.from('hi').toString('hex')).toBe('6869');
  });

  test('async_hooks follows each handle from its start to its end, only while the hook is enabled', () => {
    const handles = new Handles();
    const { createHook } = nodeModules(createNodeHttp(createRuntime(), fetch), handles).async_hooks as {
      createHook(c: { init(id: number, type: string): void; destroy(id: number): void }): { enable(): unknown; disable(): unknown };
    };
    const seen: string[] = [];
    const hook = createHook({ init: (id, type) => seen.push(`init ${id} ${type}`), destroy: (id) => seen.push(`destroy ${id}`) });
    const timer = (resourceType: string) => ({ resourceType, hasRef: () => true });
    const before = timer('Timeout');
    handles.add(before);
    hook.enable();
    const [a, b] = [timer('Timeout'), timer('TCPServerWrap')];
    handles.add(a);
    handles.add(a); // a refresh() of a live timer is not a new one
    handles.add(b);
    handles.delete(a);
    handles.delete(a);
    handles.delete(before); // started before the hook: its end is reported, as Node reports it
    hook.disable();
    handles.delete(b);
    handles.add(timer('Timeout'));
    expect(seen).toEqual(['init 1 Timeout', 'init 2 TCPServerWrap', 'destroy 1', 'destroy 3']);
  });

  test('the suite build knows exactly the modules the worker has', () => {
    expect(Object.keys(modules).sort()).toEqual([...WORKER_NODE_MODULES].sort());
  });

  test('the module source re-exports every name', () => {
    const source = nodeModuleSource('timers', modules.timers!);
    for (const name of Object.keys(modules.timers!)) expect(source).toContain(`export const ${name} = `);
    expect(source).toContain('export default m;');
    expect(nodeModuleSource('http', modules.http!)).toContain('export const createServer = ');
  });
});

type Events = typeof import('node:events') & { default: unknown };
const describeErr = (e: unknown) => {
  const err = e as { name?: string; code?: string; message?: string; cause?: unknown };
  return `${err.name}[${err.code}]: ${err.message}${err.cause === undefined ? '' : ` (cause: ${String((err.cause as Error).message)})`}`;
};
const settle = (p: Promise<unknown>) =>
  p.then(
    (v) => `resolved ${JSON.stringify(v, (_k, x) => (x instanceof Event ? `Event ${x.type}` : x))}`,
    (e) => `rejected ${describeErr(e)}`,
  );
const attempt = (fn: () => unknown) => {
  try {
    return `ok ${String(fn())}`;
  } catch (e) {
    return `threw ${describeErr(e)}`;
  }
};
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** What code sees of node:events, as a list of observations: the page's module must give Node's. */
async function observe(ev: Events): Promise<string[]> {
  const { EventEmitter, once, on, errorMonitor, captureRejectionSymbol, setMaxListeners, getMaxListeners, getEventListeners, addAbortListener } = ev;
  const seen: string[] = [];
  const counts = (e: InstanceType<typeof EventEmitter>, ...names: string[]) => names.map((n) => `${n}:${e.listenerCount(n)}`).join(' ');

  // once(): its value, an 'error', an abort (its listeners gone), an aborted signal, a bad signal, an EventTarget.
  const e1 = new EventEmitter();
  const got = settle(once(e1, 'x'));
  e1.emit('x', 1, 2);
  seen.push(`once ${await got} ${counts(e1, 'x', 'error')}`);
  const failed = settle(once(e1, 'x'));
  e1.emit('error', new Error('bad'));
  seen.push(`once on error ${await failed} ${counts(e1, 'x', 'error')}`);
  const ac = new AbortController();
  const aborted = settle(once(e1, 'x', { signal: ac.signal }));
  seen.push(`once waiting ${counts(e1, 'x', 'error')}`);
  ac.abort(new Error('stop'));
  seen.push(`once aborted ${await aborted} ${counts(e1, 'x', 'error')}`);
  seen.push(`once already aborted ${await settle(once(e1, 'x', { signal: ac.signal }))} ${counts(e1, 'x', 'error')}`);
  seen.push(`once bad signal ${await settle(once(e1, 'x', { signal: 'no' as never }))}`);
  const target = new EventTarget();
  const fromTarget = settle(once(target, 'ping'));
  target.dispatchEvent(new Event('ping'));
  seen.push(`once EventTarget ${await fromTarget}`);

  // on(): events in order, early break, 'error', abort, an aborted signal, close events.
  const e2 = new EventEmitter();
  const values: unknown[] = [];
  const loop = (async () => {
    for await (const args of on(e2, 'x')) {
      values.push(args);
      if (values.length === 2) break;
    }
  })();
  e2.emit('x', 1);
  e2.emit('x', 2, 'b');
  await loop;
  seen.push(`on ${JSON.stringify(values)} ${counts(e2, 'x', 'error')} next ${JSON.stringify(await on(e2, 'x').return?.())}`);
  const iter = on(e2, 'x');
  e2.emit('error', new Error('boom'));
  seen.push(`on error ${await settle(iter.next())} then ${await settle(iter.next())} ${counts(e2, 'x', 'error')}`);
  const ac2 = new AbortController();
  const iter2 = on(e2, 'x', { signal: ac2.signal });
  const pending = settle(iter2.next());
  ac2.abort();
  seen.push(`on aborted ${await pending} ${counts(e2, 'x', 'error')}`);
  seen.push(`on already aborted ${attempt(() => on(e2, 'x', { signal: ac2.signal }))}`);
  const iter3 = on(e2, 'x', { close: ['end'] } as never);
  e2.emit('x', 'last');
  e2.emit('end');
  seen.push(`on close ${await settle(iter3.next())} ${await settle(iter3.next())} ${counts(e2, 'x', 'end')}`);
  seen.push(`on is an async iterator ${typeof iter3[Symbol.asyncIterator]} ${Object.getPrototypeOf(Object.getPrototypeOf(iter3)) === Object.prototype}`);

  // errorMonitor first, then 'error' listeners (or the throw); the symbols.
  const e3 = new EventEmitter();
  const order: string[] = [];
  e3.on(errorMonitor, (err: Error) => order.push(`monitor ${err.message}`));
  seen.push(`unhandled with a monitor ${attempt(() => e3.emit('error', new Error('one')))} ${order.join(',')}`);
  e3.on('error', (err: Error) => order.push(`error ${err.message}`));
  e3.emit('error', new Error('two'));
  seen.push(`errorMonitor ${order.join(',')} ${typeof errorMonitor} ${errorMonitor.description} ${EventEmitter.errorMonitor === errorMonitor}`);
  seen.push(
    `captureRejectionSymbol ${captureRejectionSymbol === Symbol.for('nodejs.rejection')} ${EventEmitter.captureRejectionSymbol === captureRejectionSymbol}`,
  );
  seen.push(`statics ${EventEmitter.once === once} ${EventEmitter.on === on}`);

  // setMaxListeners / getMaxListeners: emitters, EventTargets (AbortSignal), the default, refusals.
  const e4 = new EventEmitter();
  const signal = new AbortController().signal;
  setMaxListeners(5, e4, signal);
  seen.push(`setMaxListeners ${e4.getMaxListeners()} ${getMaxListeners(e4)} ${getMaxListeners(signal)}`);
  setMaxListeners(12);
  seen.push(`default ${EventEmitter.defaultMaxListeners} ${new EventEmitter().getMaxListeners()}`);
  setMaxListeners(10);
  seen.push(`setMaxListeners refuses ${attempt(() => setMaxListeners(1, {} as never))} ${attempt(() => setMaxListeners(-1))}`);

  // getEventListeners of an emitter; addAbortListener and its disposable.
  const fn = () => {};
  e4.on('y', fn);
  seen.push(`getEventListeners ${getEventListeners(e4, 'y')[0] === fn} ${getEventListeners(e4, 'z').length}`);
  const calls: string[] = [];
  const ac3 = new AbortController();
  const kept = addAbortListener(ac3.signal, () => calls.push('kept'));
  const dropped = addAbortListener(ac3.signal, () => calls.push('dropped'));
  dropped[Symbol.dispose]();
  ac3.abort();
  ac3.abort();
  addAbortListener(ac3.signal, () => calls.push('late'));
  seen.push(`addAbortListener at once ${calls.join(',')} ${typeof kept[Symbol.dispose]}`);
  await tick();
  seen.push(`addAbortListener later ${calls.join(',')}`);
  seen.push(`addAbortListener refuses ${attempt(() => addAbortListener(undefined as never, fn))} ${attempt(() => addAbortListener(signal, 'x' as never))}`);
  return seen;
}

describe('node:events in the page', () => {
  const page = modules.events as unknown as Events;

  test('is the npm events package the worker runs, not Node’s own (which a plain import resolves to here)', async () => {
    const node = await import('node:events');
    expect(page.EventEmitter).not.toBe(node.EventEmitter);
    expect(page.default).toBe(page.EventEmitter);
  });

  test('once, on, errorMonitor, setMaxListeners, getEventListeners and addAbortListener behave as Node’s', async () => {
    const node = (await import('node:events')) as unknown as Events;
    const expected = await observe(node);
    expect(await observe(page)).toEqual(expected);
  });

  test('getEventListeners of an EventTarget says the page cannot list them', () => {
    expect(() => page.getEventListeners(new EventTarget(), 'x')).toThrow(expect.objectContaining({ code: 'ERR_NOT_SUPPORTED' }));
  });
});
