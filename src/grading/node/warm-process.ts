import type { ChildProcess } from 'node:child_process';
import type { RunResult } from '../core/types.ts';

/** The line a warm script prints after each round (exercises/_env/grader-warm.mjs). */
export const WARM_DONE = '__grader_warm_done__';

/**
 * A long-lived child that works in rounds: write `run`, collect its output until the done marker.
 * A round past its time limit kills the child (the caller starts a fresh one next time).
 */
export class WarmProcess {
  private output = '';
  private waiting: ((exitCode: number | null) => void) | undefined;
  private exited = false;

  constructor(
    readonly child: ChildProcess,
    private readonly kill: () => void,
    private readonly maxOutput: number,
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
  }

  get alive(): boolean {
    return !this.exited;
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
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        this.kill();
      }, timeoutMs);
      this.waiting = (exitCode) => {
        clearTimeout(timer);
        const output = this.output.slice(0, this.maxOutput);
        this.output = '';
        resolve({ exitCode, output, timedOut, durationMs: performance.now() - started });
      };
      if (this.exited) this.settle(null);
      else this.child.stdin!.write('run\n');
    });
  }
}
