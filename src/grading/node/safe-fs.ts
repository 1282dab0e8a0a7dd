// File access to a workspace that untrusted code has written to. The grader runs with the
// instructor's rights (often root), so it must never follow a link a submission planted
// (grader-events.jsonl -> ~/.ssh/id_rsa, src/ -> /etc), block on a FIFO, or read a huge file.
import { constants } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, rm } from 'node:fs/promises';
import { resolve, sep } from 'node:path';

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_NONBLOCK } = constants;

/** The `/`-separated parts of `path` below `root`; throws when it would leave it. */
export function partsInside(root: string, path: string): string[] {
  const full = resolve(root, path);
  if (!full.startsWith(root + sep)) throw new Error(`path outside the sandbox: ${path}`);
  return full.slice(root.length + 1).split(sep);
}

async function kind(path: string) {
  try {
    const s = await lstat(path);
    return s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : s.isFile() ? 'file' : 'other';
  } catch {
    return 'none';
  }
}

/**
 * Writes `text` at `path` under `root`: links and odd files in the way are replaced, never
 * followed. `owner` (when given) gets the folders and the file, so the sandbox can write them.
 */
export async function safeWrite(root: string, path: string, text: string, owner?: { uid: number; gid: number }): Promise<void> {
  const parts = partsInside(root, path);
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = `${dir}/${part}`;
    const k = await kind(dir);
    if (k === 'dir') continue;
    if (k !== 'none') await rm(dir, { force: true, recursive: true });
    await mkdir(dir);
    if (owner) {
      const handle = await open(dir, O_RDONLY | O_NOFOLLOW);
      await handle.chown(owner.uid, owner.gid).finally(() => handle.close());
    }
  }
  const file = `${dir}/${parts.at(-1)}`;
  if ((await kind(file)) !== 'none') await rm(file, { force: true, recursive: true });
  const handle = await open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o644);
  try {
    await handle.writeFile(text);
    if (owner) await handle.chown(owner.uid, owner.gid);
  } finally {
    await handle.close();
  }
}

/** The text of a regular file under `root` (at most `maxBytes`), or undefined. */
export async function safeRead(root: string, path: string, maxBytes: number): Promise<string | undefined> {
  let parts: string[];
  try {
    parts = partsInside(root, path);
  } catch {
    return undefined;
  }
  let dir = root;
  for (const part of parts.slice(0, -1)) {
    dir = `${dir}/${part}`;
    if ((await kind(dir)) !== 'dir') return undefined;
  }
  let handle: FileHandle;
  try {
    handle = await open(`${dir}/${parts.at(-1)}`, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch {
    return undefined; // missing, or a link (ELOOP)
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return undefined;
    const size = Math.min(stat.size, maxBytes);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
