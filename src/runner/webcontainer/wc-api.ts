/**
 * The part of @webcontainer/api the runner uses, so the adapter can be tested against a fake
 * (the real one needs StackBlitz's servers). Shapes follow the package's index.d.ts (1.6).
 */

/** The @webcontainer/api release the page loads (a test keeps it equal to the installed one): part of the cache key. */
export const WEBCONTAINER_API_VERSION = '1.6.4';
export interface FileNodeLike {
  file: { contents: string | Uint8Array };
}
export interface DirectoryNodeLike {
  directory: FileSystemTreeLike;
}
export interface FileSystemTreeLike {
  [name: string]: FileNodeLike | DirectoryNodeLike;
}

export interface ProcessLike {
  /** Resolves with the exit code; wait on this, not on the end of `output` (which may never end). */
  exit: Promise<number>;
  /** stdout and stderr merged, with ANSI escapes. */
  output: ReadableStream<string>;
  kill(): void;
}

export interface WebContainerLike {
  mount(tree: FileSystemTreeLike | Uint8Array, options?: { mountPoint?: string }): Promise<void>;
  spawn(command: string, args: string[], options?: { env?: Record<string, string> }): Promise<ProcessLike>;
  export(path: string, options: { format: 'binary' }): Promise<Uint8Array>;
  fs: {
    readFile(path: string, encoding: 'utf-8'): Promise<string>;
    mkdir(path: string, options: { recursive: true }): Promise<unknown>;
    rm(path: string, options: { recursive: true; force: true }): Promise<void>;
  };
  /** Cookie and privacy blockers, among others, report here. Returns the unsubscribe function. */
  on(event: 'error', listener: (error: { message: string }) => void): () => void;
  /** Ends this instance; a new `boot()` is then allowed. */
  teardown(): void;
}

/** Turns `{ 'src/retry.ts': '…' }` into WebContainer's nested tree. */
export function toTree(files: Record<string, string>): FileSystemTreeLike {
  const root: FileSystemTreeLike = {};
  for (const [path, contents] of Object.entries(files)) {
    const parts = path.split('/');
    let dir = root;
    for (const part of parts.slice(0, -1)) {
      const node = (dir[part] ??= { directory: {} });
      if (!('directory' in node)) throw new Error(`${path}: ${part} is a file, not a folder`);
      dir = node.directory;
    }
    dir[parts[parts.length - 1]!] = { file: { contents } };
  }
  return root;
}
