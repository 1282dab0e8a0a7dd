import { describe, expect, test } from 'vitest';
import { linkImports, NODE_MODULES, nodeModuleSource } from './node-modules.ts';

const urls = { timers: 'blob:timers', 'timers/promises': 'blob:tp' };

describe('Node modules in the page', () => {
  test('imports of node:timers and node:timers/promises are linked; comments and strings are left alone', () => {
    const code =
      "import { setTimeout as delay } from 'node:timers/promises';\nimport {\n  setTimeout,\n} from \"timers\";\n// fetch it from 'somewhere' later\nconst s = \"import 'x'\";\n";
    const linked = linkImports(code, 'retry.ts', urls);
    expect(linked).toContain("from 'blob:tp'");
    expect(linked).toContain('from "blob:timers"');
    expect(linked).toContain("from 'somewhere' later");
  });

  test('any other import fails to load with a message that names it and says where it can run', () => {
    expect(() => linkImports("import { readFileSync } from 'node:fs';\n", 'retry.ts', urls)).toThrow(
      /Cannot find module 'node:fs' imported from src\/retry\.ts.*npm run check/,
    );
    expect(() => linkImports("import './other.ts';\n", 'retry.ts', urls)).toThrow(expect.objectContaining({ code: 'ERR_MODULE_NOT_FOUND' }));
  });

  test('timers/promises.setTimeout resolves with its value, and rejects with an AbortError when its signal aborts', async () => {
    const tp = NODE_MODULES['timers/promises'] as { setTimeout: (d: number, v?: unknown, o?: { signal?: AbortSignal }) => Promise<unknown> };
    expect(await tp.setTimeout(5, 'done')).toBe('done');
    const controller = new AbortController();
    const waiting = tp.setTimeout(10_000, 'never', { signal: controller.signal });
    controller.abort(new Error('client went away'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError', code: 'ABORT_ERR', cause: new Error('client went away') });
    await expect(tp.setTimeout(5, 'x', { signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
  });

  test('the module source re-exports every name', () => {
    const source = nodeModuleSource('timers');
    for (const name of Object.keys(NODE_MODULES.timers!)) expect(source).toContain(`export const ${name} = `);
    expect(source).toContain('export default m;');
  });
});
