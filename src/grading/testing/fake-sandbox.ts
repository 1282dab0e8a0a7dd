/** A test aid: an in-memory Sandbox that records its runs, for testing the grader without child processes. */
import type { RunOptions, RunResult, Sandbox } from '../core/types.ts';

export interface FakeRun {
  command: string;
  args: string[];
  opts: RunOptions;
}

/**
 * An in-memory sandbox for unit tests. `onRun` plays the command: it may write files (as a
 * reporter would) and returns the result; by default every command exits 0 with no output.
 */
export class FakeSandbox implements Sandbox {
  readonly root = '/sandbox';
  readonly files = new Map<string, string>();
  readonly runs: FakeRun[] = [];
  killed = 0;
  onRun: (run: FakeRun, sandbox: FakeSandbox) => Partial<RunResult> | Promise<Partial<RunResult>> = () => ({});

  async mount(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) this.files.set(path, text);
  }

  async run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
    const run = { command, args, opts };
    this.runs.push(run);
    const partial = await this.onRun(run, this);
    return { exitCode: 0, output: '', timedOut: false, durationMs: 1, ...partial };
  }

  async readFile(path: string): Promise<string | undefined> {
    return this.files.get(path);
  }

  async kill(): Promise<void> {
    this.killed++;
  }
}
