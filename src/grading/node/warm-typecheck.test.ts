// One warm checker serves several sandboxes (the local runner keeps one per exercise): each root
// reports its own files' errors, and follows their edits.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { ENV_DIR } from './fs-source.ts';
import { NodeSandbox } from './node-sandbox.ts';
import { warmTypeChecker } from './warm-typecheck.ts';

const sandboxes: NodeSandbox[] = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose())));

async function sandboxWith(files: Record<string, string>) {
  const sandbox = await NodeSandbox.create();
  sandboxes.push(sandbox);
  await sandbox.mount({ 'tsconfig.json': readFileSync(join(ENV_DIR, 'tsconfig.json'), 'utf8'), ...files });
  return sandbox;
}

test('each root reports its own type errors and follows edits', { timeout: 60_000 }, async () => {
  const checker = warmTypeChecker();
  const clean = await sandboxWith({ 'src/a.ts': "import { setTimeout as wait } from 'node:timers/promises';\nexport const later = () => wait(1);\n" });
  const broken = await sandboxWith({ 'src/b.ts': "export const n: number = 'one';\n" });

  expect(await checker.check(clean.root)).toBe('');
  expect(await checker.check(broken.root)).toMatch(/^src\/b\.ts\(1,14\): error TS2322: /);
  expect(await checker.check(clean.root), 'the other root is untouched').toBe('');

  await broken.mount({ 'src/b.ts': 'export const n: number = 1;\n' });
  expect(await checker.check(broken.root)).toBe('');
  await clean.mount({ 'src/c.ts': 'export const s: string = 2;\n' });
  expect(await checker.check(clean.root), 'a new file is picked up').toMatch(/^src\/c\.ts\(1,14\): error TS2322: /);
});
