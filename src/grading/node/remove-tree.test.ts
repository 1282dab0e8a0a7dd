// Removing what a submission left behind: a tree deeper than PATH_MAX (Node's own removal fails on it
// with ENAMETOOLONG), a link out of the tree (never followed), and, for a grader that is not root,
// folders locked with chmod 000.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { removeTree, removeTreeSync } from './remove-tree.ts';

const scratch = mkdtempSync(join(tmpdir(), 'remove-tree-'));
afterAll(() => spawnSync('rm', ['-rf', '--one-file-system', '--', scratch]));

/** A tree `bytes` deep (folders of 200-character names), made with relative paths only, as a submission would. */
function deepTree(root: string, bytes: number, locked = false): void {
  const script = `
const fs = require('node:fs');
process.chdir(process.argv[1]);
for (let depth = 0; depth < ${Math.ceil(bytes / 201)}; depth++) {
  fs.mkdirSync('d'.repeat(200));
  process.chdir('d'.repeat(200));
}
fs.writeFileSync('bottom.txt', 'x');
${locked ? "fs.mkdirSync('locked'); fs.writeFileSync('locked/f', 'x'); fs.chmodSync('locked', 0);" : ''}`;
  const r = spawnSync(process.execPath, ['-e', script, root], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
}

describe('removeTree', () => {
  test('removes a tree 6 KB deep, which fs/promises rm cannot', async () => {
    const root = join(scratch, 'deep');
    mkdirSync(root);
    deepTree(root, 6 * 1024);
    await expect(rm(root, { recursive: true, force: true })).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
    expect(existsSync(root)).toBe(true);
    await removeTree(root);
    expect(existsSync(root)).toBe(false);
  });

  // Node 24's rmSync walks the tree natively and manages; Node 20's fails here too, and then rm -rf does it.
  test('and synchronously, for the exit hook', () => {
    const root = join(scratch, 'deep-sync');
    mkdirSync(root);
    deepTree(root, 6 * 1024);
    expect(removeTreeSync(root)).toBe(true);
    expect(existsSync(root)).toBe(false);
  });

  test('never follows a link out of the tree', async () => {
    const outside = join(scratch, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'keep.txt'), 'mine');
    const root = join(scratch, 'linked');
    mkdirSync(root);
    deepTree(root, 5000);
    symlinkSync(outside, join(root, 'out'));
    await removeTree(root);
    expect(existsSync(root)).toBe(false);
    expect(readFileSync(join(outside, 'keep.txt'), 'utf8')).toBe('mine');
  });

  // Root reads and removes a folder whatever its mode: only a grader that is not root meets a lock.
  test.skipIf(process.getuid?.() === 0)('removes folders locked with chmod 000', async () => {
    const root = join(scratch, 'locked');
    mkdirSync(root);
    deepTree(root, 5000, true);
    await removeTree(root);
    expect(existsSync(root)).toBe(false);
  });

  test('a path that is not there is removed already', async () => {
    await removeTree(join(scratch, 'never-made'));
    expect(removeTreeSync(join(scratch, 'never-made'))).toBe(true);
    rmSync(join(scratch, 'never-made'), { force: true });
  });
});
