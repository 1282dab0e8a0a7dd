import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { safeRead, safeWrite } from './safe-fs.ts';

// The grader reads and writes a workspace a submission controlled; it must never follow its links.
describe('safe-fs', () => {
  let dir: string;
  let root: string;
  let secret: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'safe-fs-'));
    root = join(dir, 'work');
    mkdirSync(root);
    secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'TOKEN');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('reads a regular file, capped, and nothing outside the root', async () => {
    writeFileSync(join(root, 'a.txt'), 'hello world');
    expect(await safeRead(root, 'a.txt', 5)).toBe('hello');
    expect(await safeRead(root, 'missing.txt', 100)).toBeUndefined();
    expect(await safeRead(root, '../secret.txt', 100)).toBeUndefined();
  });

  test('a planted link, as the file or as a folder on the way, is not followed', async () => {
    symlinkSync(secret, join(root, 'grader-events.jsonl'));
    symlinkSync(dir, join(root, 'src'));
    expect(await safeRead(root, 'grader-events.jsonl', 100)).toBeUndefined();
    expect(await safeRead(root, 'src/secret.txt', 100)).toBeUndefined();
  });

  test.skipIf(process.platform === 'win32')('a FIFO is not read (it would block the grader)', async () => {
    execFileSync('mkfifo', [join(root, 'grader-progress.jsonl')]);
    expect(await safeRead(root, 'grader-progress.jsonl', 100)).toBeUndefined();
  });

  test('writing replaces planted links instead of writing through them', async () => {
    symlinkSync(secret, join(root, 'retry.ts'));
    symlinkSync(dir, join(root, 'tests'));
    await safeWrite(root, 'retry.ts', 'mine');
    await safeWrite(root, 'tests/a.test.ts', 'suite');
    expect(readFileSync(secret, 'utf8')).toBe('TOKEN');
    expect(readFileSync(join(root, 'retry.ts'), 'utf8')).toBe('mine');
    expect(lstatSync(join(root, 'tests')).isDirectory()).toBe(true);
    expect(readFileSync(join(root, 'tests/a.test.ts'), 'utf8')).toBe('suite');
    await expect(safeWrite(root, '../escape.txt', 'x')).rejects.toThrow(/outside the sandbox/);
  });
});
