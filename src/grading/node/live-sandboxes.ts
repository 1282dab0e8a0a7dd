/**
 * Every sandbox process and folder of this process, so that nothing outlives it: on exit they are
 * killed and removed synchronously; on SIGINT or SIGTERM (killSandboxesOnSignals, CLI use) they are
 * killed and removed first, the event loop left free meanwhile, and then the process exits.
 *
 * Why not just exit on the signal: Ctrl-C reaches both tsx and the script it runs, and tsx passes the
 * signal on and waits 30 ms for the script to acknowledge it (its own handler, run by the event loop)
 * before killing it with SIGKILL. A script busy removing folders synchronously in its exit hook cannot
 * acknowledge, and was killed half-way, leaving sandboxes with the hidden tests in the temp folder.
 */
import type { ChildProcess } from 'node:child_process';
import { killGroup } from './child-run.ts';
import { removeTree, removeTreeSync } from './remove-tree.ts';

const children = new Set<ChildProcess>();
const folders = new Set<string>();
let stopping: Promise<void> | undefined;

/** What a sandbox's next step throws once the process is stopping: nothing new is started or written. */
export class SandboxesStopping extends Error {
  constructor() {
    super('the grader is stopping (SIGINT or SIGTERM): no sandbox is started or written to any more');
    this.name = 'SandboxesStopping';
  }
}

/** Whether a signal is stopping this process (outputs written from then on would be half a class). */
export const sandboxesStopping = (): boolean => stopping !== undefined;

export const liveSandboxes = {
  /** Throws once the process is stopping: sandboxes check before every step that starts or writes. */
  assertRunning(): void {
    if (stopping) throw new SandboxesStopping();
  },
  /** A sandbox process: killed (its whole group) when this process ends. */
  child(child: ChildProcess): void {
    children.add(child);
    child.once('close', () => children.delete(child));
  },
  /** A sandbox folder: removed when this process ends, unless `forget` was called. */
  folder(path: string): void {
    folders.add(path);
    if (stopping) {
      removeTreeSync(path);
      throw new SandboxesStopping();
    }
  },
  forget(path: string): void {
    folders.delete(path);
  },
};

process.once('exit', () => {
  for (const child of children) killGroup(child);
  for (const folder of folders) removeTreeSync(folder);
});

// How long the sandboxes' steps already under way (a write, a folder being made) get to land or fail
// before the folders are removed: from the signal on, none starts another.
const SETTLE_MS = 200;

async function stop(code: number): Promise<void> {
  // From the signal on, this process only cleans up and exits with the signal's code: a step under
  // way that now fails (a sandbox refusing to start, a process killed under it) must not end it
  // first with exit code 1, leaving the clean-up to the synchronous exit hook.
  process.on('unhandledRejection', () => undefined);
  process.on('uncaughtException', () => undefined);
  for (const child of children) killGroup(child);
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  for (const child of children) killGroup(child);
  // Kept in the set: the exit hook looks again, synchronously, once nothing else can run.
  await Promise.allSettled([...folders].map((folder) => removeTree(folder)));
  process.exit(code);
}

/**
 * Ends the process on SIGINT/SIGTERM once its sandboxes are killed and removed. `on`, not `once`:
 * the signal tsx passes on arrives while the folders are being removed, and must not kill the process.
 */
export function killSandboxesOnSignals(): void {
  process.on('SIGINT', () => void (stopping ??= stop(130)));
  process.on('SIGTERM', () => void (stopping ??= stop(143)));
}
