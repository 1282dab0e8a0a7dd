/**
 * The grading engine's Sandbox inside a WebContainer: thin, the grading logic is shared. A process
 * that has not exited a few seconds after a kill (the watchdog's, or the hard limit's) is reported
 * through `onStuck`, so the runner can tear the container down and boot a fresh one.
 */
import type { RunOptions, RunResult, Sandbox } from '../../grading/core/index.ts';
import { toTree, type ProcessLike, type WebContainerLike } from './wc-api.ts';

const MAX_OUTPUT = 64_000;
/** How long a killed process may take to report its exit before the container counts as stuck. */
export const KILL_GRACE_MS = 3000;

export class WebContainerSandbox implements Sandbox {
  private readonly running = new Map<ProcessLike, () => void>();

  constructor(
    private readonly wc: WebContainerLike,
    private readonly onStuck: () => void = () => {},
    private readonly killGraceMs = KILL_GRACE_MS,
  ) {}

  /** Kills `proc`; if it has not exited within the grace period, the container is stuck. */
  private killAndWatch(proc: ProcessLike): void {
    proc.kill();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void Promise.race([
      proc.exit.then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.killGraceMs))),
    ]).then((exited) => {
      clearTimeout(timer);
      if (!exited) this.onStuck();
    });
  }

  async mount(files: Record<string, string>): Promise<void> {
    await this.wc.mount(toTree(files));
  }

  async readFile(path: string): Promise<string | undefined> {
    try {
      return await this.wc.fs.readFile(path, 'utf-8');
    } catch {
      return undefined;
    }
  }

  async run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
    const started = performance.now();
    const proc = await this.wc.spawn(command, args, { env: { NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...opts.env } });
    let output = '';
    proc.output
      .pipeTo(
        new WritableStream({
          write(chunk) {
            if (output.length < MAX_OUTPUT) output += chunk.slice(0, MAX_OUTPUT - output.length);
          },
        }),
      )
      .catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const outcome = await new Promise<{ exitCode: number | null; timedOut: boolean }>((resolve) => {
      this.running.set(proc, () => resolve({ exitCode: null, timedOut: false }));
      timer = setTimeout(() => {
        this.killAndWatch(proc);
        resolve({ exitCode: null, timedOut: true });
      }, opts.timeoutMs);
      proc.exit.then(
        (exitCode) => resolve({ exitCode, timedOut: false }),
        () => resolve({ exitCode: null, timedOut: false }),
      );
    });
    clearTimeout(timer);
    this.running.delete(proc);
    return { ...outcome, output, durationMs: performance.now() - started };
  }

  async kill(): Promise<void> {
    for (const [proc, stopped] of this.running) {
      this.killAndWatch(proc);
      stopped(); // do not wait for an exit a killed process may never report
    }
    this.running.clear();
  }
}
