/**
 * What both sandboxes do with a child process they started (detached, in its own process group):
 * keep its output up to a cap, stop it when its time is up or a limit is crossed, and kill its whole
 * group when it ends, so nothing it started (a learner's server, a stray worker) outlives the run.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import type { RunLimit, RunResult } from '../core/index.ts';

/** SIGKILL to the child's process group (it was spawned detached); quiet when it is already gone. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** The process-wide record of sandbox children (live-sandboxes.ts), passed in so this file needs none of it. */
export interface ChildRegistry {
  assertRunning(): void;
  child(child: ChildProcess): void;
}

/**
 * The children one sandbox started, so that its kill() reaches every one still holding its output
 * pipes. A child is forgotten on 'close', not 'exit': after 'exit' a process it started (a learner's
 * server) can still hold the pipes and run on, and kill() must still reach its group.
 */
export class ChildGroup {
  private readonly children = new Set<ChildProcess>();
  constructor(private readonly registry: ChildRegistry) {}

  /** Starts `command` detached (its own process group, so the whole tree can be killed) and tracks it. */
  spawn(command: string, args: readonly string[], options: Omit<SpawnOptions, 'detached'>): ChildProcess {
    this.registry.assertRunning();
    const child = spawn(command, args, { ...options, detached: true });
    this.children.add(child);
    this.registry.child(child);
    child.once('close', () => this.children.delete(child));
    return child;
  }

  get size(): number {
    return this.children.size;
  }

  /** SIGKILL to the group of every child not yet closed. */
  killAll(): void {
    for (const child of this.children) killGroup(child);
  }
}

export interface WatchOptions {
  timeoutMs: number;
  maxOutput: number;
  /** 'close' waits for the output pipes too (every process holding them is gone); 'exit' does not. */
  endsOn: 'exit' | 'close';
  /** Checked every `everyMs` while the run lasts: a limit it returns stops the run. */
  poll?: { everyMs: number; check(): RunLimit | undefined };
  /** Reads the finished run's output for a limit the process hit on its own (out of memory). */
  limitIn?(output: string): RunLimit | undefined;
}

/** Collects the child's output and resolves when it has ended, its group killed. */
export function watchChild(child: ChildProcess, opts: WatchOptions): Promise<RunResult> {
  const started = performance.now();
  let output = '';
  const collect = (chunk: Buffer) => {
    if (output.length < opts.maxOutput) output += chunk.toString('utf8').slice(0, opts.maxOutput - output.length);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  return new Promise((resolvePromise) => {
    let limit: RunLimit | undefined;
    const stop = (why: RunLimit) => {
      limit ??= why;
      killGroup(child);
    };
    const timer = setTimeout(() => stop({ kind: 'time', ms: opts.timeoutMs }), opts.timeoutMs);
    const poll =
      opts.poll &&
      setInterval(() => {
        const crossed = opts.poll!.check();
        if (crossed) stop(crossed);
      }, opts.poll.everyMs);
    let ended = false;
    const finish = (exitCode: number | null) => {
      if (ended) return;
      ended = true;
      clearTimeout(timer);
      if (poll) clearInterval(poll);
      killGroup(child); // whatever the command left behind
      limit ??= opts.limitIn?.(output);
      resolvePromise({ exitCode, output, timedOut: limit?.kind === 'time', durationMs: performance.now() - started, ...(limit ? { limit } : {}) });
    };
    child.once(opts.endsOn, (code: number | null) => finish(code));
    child.once('error', (err) => {
      output += String(err);
      finish(null);
    });
  });
}
