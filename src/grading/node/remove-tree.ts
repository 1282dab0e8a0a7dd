/**
 * Removing a sandbox's folder, whatever a submission left in it. fs/promises' rm (and Node 20's rmSync)
 * joins every path from the root, so a tree deeper than PATH_MAX (4,096 bytes of names) fails with
 * ENAMETOOLONG and stays on disk; a folder made unreadable (chmod 000) stops it for a grader that is not root.
 * The fallback is coreutils' `rm -rf --one-file-system`, which walks the tree with descriptors
 * relative to each folder (fts, openat, unlinkat), at any depth, and never crosses into another
 * mounted file system; `chmod -R u+rwx` first gives the owner back the folders it locked.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';

// BSD rm (macOS, for NodeSandbox) says -x for --one-file-system.
const RM = ['-rf', process.platform === 'linux' ? '--one-file-system' : '-x', '--'];
const CHMOD = ['-R', 'u+rwx', '--'];

function run(command: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore' });
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  });
}

const gone = (path: string) => !existsSync(path);

function failure(path: string, first: unknown): Error {
  return new Error(`could not remove ${path}: ${(first as NodeJS.ErrnoException)?.code ?? String(first)}`, { cause: first });
}

/** `rm -rf path`, at any depth and through folders a submission locked; throws when it stays. */
export async function removeTree(path: string): Promise<void> {
  let first: unknown;
  try {
    await rm(path, { recursive: true, force: true, maxRetries: 2 });
    return;
  } catch (error) {
    first = error;
  }
  if (process.platform === 'win32') throw failure(path, first);
  if ((await run('rm', [...RM, path])) === 0 && gone(path)) return;
  await run('chmod', [...CHMOD, path]);
  await run('rm', [...RM, path]);
  if (!gone(path)) throw failure(path, first);
}

/** The same, synchronously: for the exit hook, which cannot wait for a promise. Never throws. */
export function removeTreeSync(path: string): boolean {
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
    return true;
  } catch {
    if (process.platform === 'win32') return false;
  }
  if (spawnSync('rm', [...RM, path], { stdio: 'ignore' }).status === 0 && gone(path)) return true;
  spawnSync('chmod', [...CHMOD, path], { stdio: 'ignore' });
  spawnSync('rm', [...RM, path], { stdio: 'ignore' });
  return gone(path);
}
