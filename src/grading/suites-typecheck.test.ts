// The hidden suites are TypeScript too, and nothing else type-checks them: vitest strips types
// without checking, and the repository's tsconfig leaves exercises/ out. Each suite is checked
// here, strict, against its reference solution, laid out as in the sandbox (src/ and tests/).
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ENV_DIR, fsExerciseSource, REPO_ROOT, warmTypeChecker } from './index.ts';

const source = fsExerciseSource();
const ids = await source.ids();
const checker = warmTypeChecker();
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function write(root: string, path: string, text: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), text);
}

describe('hidden suites type-check', () => {
  test.each(ids)('%s: its tests and reference solution', { timeout: 60_000 }, async (id) => {
    const bundle = (await source.load(id))!;
    const root = mkdtempSync(join(tmpdir(), 'suite-types-'));
    roots.push(root);
    symlinkSync(join(ENV_DIR, 'node_modules'), join(root, 'node_modules'), 'dir');
    const config = JSON.parse(bundle.env['tsconfig.json']!) as { include: string[] };
    write(root, 'tsconfig.json', JSON.stringify({ ...config, include: [...config.include, 'tests/**/*.ts'] }));
    for (const [path, text] of Object.entries(bundle.tests)) write(root, `tests/${path}`, text);
    for (const f of bundle.exercise.files) {
      const text = f.editable ? readFileSync(join(REPO_ROOT, 'solutions', id, f.path), 'utf8') : bundle.starter[f.path]!;
      write(root, `src/${f.path}`, text);
    }
    expect(await checker.check(root)).toBe('');
    checker.forget(root);
  });
});
