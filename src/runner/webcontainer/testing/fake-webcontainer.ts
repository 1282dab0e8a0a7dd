/**
 * A stand-in for the part of the WebContainer API the runner uses (no StackBlitz needed): an
 * in-memory file system and scripted processes. Shared by the runner's tests.
 */
import type { FileSystemTreeLike, ProcessLike, WebContainerLike } from '../wc-api.ts';

export interface FakeSpawn {
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/** What a scripted process does: its output, and its exit code (or `hang` to never exit on its own). */
export interface Script {
  output?: string[];
  exitCode?: number;
  hang?: boolean;
  /** A hanging process that does exit once killed (with code 137). */
  exitAfterKill?: boolean;
}

export class FakeWebContainer implements WebContainerLike {
  readonly files = new Map<string, string | Uint8Array>();
  readonly spawns: FakeSpawn[] = [];
  readonly mounts: { mountPoint?: string; binary: boolean }[] = [];
  readonly killed: FakeSpawn[] = [];
  exported: Uint8Array = new Uint8Array([1, 2, 3]);
  tornDown = false;
  readonly errorListeners: Array<(error: { message: string }) => void> = [];
  onSpawn: (spawn: FakeSpawn, wc: FakeWebContainer) => Script | Promise<Script> = () => ({});

  async mount(tree: FileSystemTreeLike | Uint8Array, options: { mountPoint?: string } = {}): Promise<void> {
    this.mounts.push({ mountPoint: options.mountPoint, binary: tree instanceof Uint8Array });
    if (tree instanceof Uint8Array) {
      this.files.set(`${options.mountPoint ?? ''}/<snapshot>`, tree);
      return;
    }
    const walk = (node: FileSystemTreeLike, prefix: string) => {
      for (const [name, entry] of Object.entries(node)) {
        if ('directory' in entry) walk(entry.directory, `${prefix}${name}/`);
        else this.files.set(`${prefix}${name}`, entry.file.contents);
      }
    };
    walk(tree, options.mountPoint ? `${options.mountPoint}/` : '');
  }

  async spawn(command: string, args: string[], options: { env?: Record<string, string> } = {}): Promise<ProcessLike> {
    const spawn = { command, args, env: options.env };
    this.spawns.push(spawn);
    const script = await this.onSpawn(spawn, this);
    const output = new ReadableStream<string>({
      start(controller) {
        for (const chunk of script.output ?? []) controller.enqueue(chunk);
        if (!script.hang) controller.close();
      },
    });
    let onKill = () => {};
    const exit = script.hang ? new Promise<number>((resolve) => (onKill = () => script.exitAfterKill && resolve(137))) : Promise.resolve(script.exitCode ?? 0);
    return {
      exit,
      output,
      kill: () => {
        this.killed.push(spawn);
        onKill();
      },
    };
  }

  async export(): Promise<Uint8Array> {
    return this.exported;
  }

  fs = {
    readFile: async (path: string, _encoding: 'utf-8'): Promise<string> => {
      const value = this.files.get(path);
      if (typeof value !== 'string') throw new Error(`ENOENT: ${path}`);
      return value;
    },
    mkdir: async () => undefined,
    rm: async (path: string) => {
      for (const key of [...this.files.keys()]) if (key === path || key.startsWith(`${path}/`)) this.files.delete(key);
    },
  };

  on(_event: 'error', listener: (error: { message: string }) => void): () => void {
    this.errorListeners.push(listener);
    return () => this.errorListeners.splice(this.errorListeners.indexOf(listener), 1);
  }

  teardown(): void {
    this.tornDown = true;
  }
}
