// The hidden suites are TypeScript too, and nothing else type-checks them: vitest strips types
// without checking, and the repository's tsconfig leaves exercises/ out. Each suite is checked
// here, strict, against its reference solution, mounted as in a grading sandbox (src/ and tests/).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fsExerciseSource, NodeSandbox, REPO_ROOT, warmTypeChecker } from '../index.ts';

const source = fsExerciseSource();
const ids = await source.ids();
const checker = warmTypeChecker();

describe('hidden suites type-check', () => {
  test.each(ids)('%s: its tests and reference solution', { timeout: 60_000 }, async (id) => {
    const bundle = (await source.load(id))!;
    const config = JSON.parse(bundle.env['tsconfig.json']!) as { include: string[] };
    const files: Record<string, string> = {
      'tsconfig.json': JSON.stringify({ ...config, include: [...config.include, 'tests/**/*.ts'] }),
    };
    for (const [path, text] of Object.entries(bundle.tests)) files[`tests/${path}`] = text;
    for (const [path, text] of Object.entries(bundle.env)) if (path.startsWith('test-support/')) files[path] = text;
    for (const f of bundle.exercise.files) {
      files[`src/${f.path}`] = f.editable ? readFileSync(join(REPO_ROOT, 'solutions', id, f.path), 'utf8') : bundle.starter[f.path]!;
    }
    const sandbox = await NodeSandbox.create();
    try {
      await sandbox.mount(files);
      expect(await checker.check(sandbox.root)).toBe('');
    } finally {
      checker.forget(sandbox.root);
      await sandbox.dispose();
    }
  });
});
