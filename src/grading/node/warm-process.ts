/**
 * A long-lived child process that runs a sandbox's test rounds one after another (write a round,
 * read output until the done marker), and the slot that replaces it when a round kills it.
 */
import type { ChildProcess } from 'node:child_process';
import type { RunLimit, RunOptions, RunResult } from '../core/index.ts';

/** The line a warm script prints after each round (exercises/_env/grader-warm.mjs). */
export const WARM_DONE = '__grader_warm_done__';

/** What a sandbox checks while a round lasts, beyond its time limit (the confined one: memory). */
export interface RoundWatch {
  /** Checked every `everyMs`: a limit it returns kills the process and ends the round. */
  poll?: { everyMs: number; check(): RunLimit | undefined };
  /** Reads a round's output for a limit the process hit on its own (out of memory). */
  limitIn?(output: string): RunLimit | undefined;
}

/**
 * A long-lived child that works in rounds: write `run`, collect its output until the done marker.
 * A round past its time limit (or a limit `watch` finds) kills the child; the sandbox starts a fresh
 * one next time (WarmSlot).
 */
export class WarmProcess {
  private output = '';
  private waiting: ((exitCode: number | null) => void) | undefined;
  private exited = false;

  constructor(
    private readonly child: ChildProcess,
    private readonly kill: () => void,
    private readonly maxOutput: number,
    private readonly watch: RoundWatch = {},
  ) {
    const collect = (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
      const at = this.output.indexOf(WARM_DONE);
      if (at < 0 || !this.waiting) return;
      const end = this.output.indexOf('\n', at);
      if (end < 0) return;
      let exitCode: number | null = null;
      try {
        exitCode = (JSON.parse(this.output.slice(at + WARM_DONE.length, end)) as { exitCode: number }).exitCode;
      } catch {
        // a malformed marker counts as a crashed round
      }
      this.output = this.output.slice(0, at);
      this.settle(exitCode);
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', (chunk: Buffer) => {
      this.output += chunk.toString('utf8');
    });
    child.once('exit', () => {
      this.exited = true;
      this.settle(null);
    });
    // A round written to a process that has just died (killed at a limit, or by the Ctrl-C that
    // reached its whole process group) fails with EPIPE. With no listener that error would end the
    // grader itself; the process's exit already ends the round as crashed.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.on('error', () => undefined);
  }

  get alive(): boolean {
    return !this.exited;
  }

  stop(): void {
    this.kill();
  }

  private settle(exitCode: number | null) {
    const done = this.waiting;
    this.waiting = undefined;
    done?.(exitCode);
  }

  round(timeoutMs: number): Promise<RunResult> {
    const started = performance.now();
    this.output = '';
    return new Promise((resolve) => {
      let limit: RunLimit | undefined;
      const stop = (why: RunLimit) => {
        limit ??= why;
        this.kill();
      };
      const timer = setTimeout(() => stop({ kind: 'time', ms: timeoutMs }), timeoutMs);
      const { poll, limitIn } = this.watch;
      const polling =
        poll &&
        setInterval(() => {
          const crossed = poll.check();
          if (crossed) stop(crossed);
        }, poll.everyMs);
      this.waiting = (exitCode) => {
        clearTimeout(timer);
        if (polling) clearInterval(polling);
        const output = this.output.slice(0, this.maxOutput);
        this.output = '';
        // Only a round whose process died can have hit a limit on its own.
        if (exitCode === null) limit ??= limitIn?.(output);
        resolve({ exitCode, output, timedOut: limit?.kind === 'time', durationMs: performance.now() - started, ...(limit ? { limit } : {}) });
      };
      if (this.exited) this.settle(null);
      else this.child.stdin!.write('run\n');
    });
  }
}

/**
 * The one warm process a sandbox keeps: started on first use, kept while the environment stays the
 * same (and the script), started afresh when either changes or the last one died (killed at a limit, or by
 * the sandbox's kill()).
 */
export class WarmSlot {
  private kept: { key: string; process: WarmProcess } | undefined;

  constructor(private readonly start: (script: string, env: Record<string, string> | undefined) => WarmProcess) {}

  round(script: string, opts: RunOptions): Promise<RunResult> {
    const key = JSON.stringify([script, opts.env ?? {}]);
    if (!this.kept || this.kept.key !== key || !this.kept.process.alive) {
      this.kept?.process.stop();
      this.kept = { key, process: this.start(script, opts.env) };
    }
    return this.kept.process.round(opts.timeoutMs);
  }
}
