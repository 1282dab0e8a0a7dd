/**
 * What both sandboxes do with a child process they started (detached, in its own process group):
 * keep its output up to a cap, stop it when its time is up or a limit is crossed, and kill its whole
 * group when it ends, so nothing it started (a learner's server, a stray worker) outlives the run.
 */
import type { ChildProcess } from 'node:child_process';
import type { RunLimit, RunResult } from '../core/types.ts';

/** SIGKILL to the child's process group (it was spawned detached); quiet when it is already gone. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
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
