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
