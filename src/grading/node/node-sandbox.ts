import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { ENV_DIR } from './fs-source.ts';
import type { RunOptions, RunResult, Sandbox } from '../core/types.ts';
import { WarmProcess, WarmSlot } from './warm-process.ts';
import { killGroup, watchChild } from './child-run.ts';

export interface NodeSandboxOptions {
  /** The installed exercise environment's node_modules, symlinked into the sandbox. */
  nodeModules?: string;
  /** Cap on the merged stdout + stderr kept from one run. */
  maxOutputChars?: number;
}

/**
 * The only variables a run sees: never the grader's own environment, which holds whatever the person
 * who started it has in theirs (API keys, tokens, cloud credentials, SSH agent sockets). HOME is the
 * sandbox folder, so tools that write there write into it. Windows needs SystemRoot to start Node.
 */
const PASSED_THROUGH = ['PATH', 'SystemRoot', 'windir', 'COMSPEC', 'PATHEXT'] as const;

export function cleanEnv(root: string, extra: Record<string, string> = {}, from: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const k of PASSED_THROUGH) if (from[k] !== undefined) env[k] = from[k];
  return { ...env, HOME: root, TMPDIR: tmpdir(), LANG: 'C.UTF-8', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1', ...extra };
}

// Runs are detached (their own process group) so a timeout can kill the whole tree; that also
// means a Ctrl-C of the grader would not reach them. Kill whatever is still running on exit.
const live = new Set<ChildProcess>();
const roots = new Set<string>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Ends the process on SIGINT/SIGTERM so the exit hook above kills running sandboxes (CLI use). */
export function killSandboxesOnSignals(): void {
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));
}

/**
 * A temporary directory and child processes, each run in its own process group, with a clean
 * environment. Not confined: the code runs as the user who started it, with their files and network
 * (ConfinedSandbox is the confined one).
 */
export class NodeSandbox implements Sandbox {
  readonly root: string;
  private readonly children = new Set<ChildProcess>();
  private readonly maxOutput: number;
  private readonly warm = new WarmSlot((script, env) => {
    const child = this.start('node', [script], env, 'pipe');
    return new WarmProcess(child, () => killGroup(child), this.maxOutput);
  });

  private constructor(root: string, maxOutput: number) {
    this.root = root;
    this.maxOutput = maxOutput;
  }

  static async create(opts: NodeSandboxOptions = {}): Promise<NodeSandbox> {
    const root = await mkdtemp(join(tmpdir(), 'grade-'));
    roots.add(root);
    await symlink(opts.nodeModules ?? join(ENV_DIR, 'node_modules'), join(root, 'node_modules'), 'dir');
    return new NodeSandbox(root, opts.maxOutputChars ?? 64_000);
  }

  private inside(path: string): string {
    const full = resolve(this.root, path);
    if (!full.startsWith(this.root + sep)) throw new Error(`path outside the sandbox: ${path}`);
    return full;
  }

  async mount(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      const full = this.inside(path);
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, text);
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    try {
      return await readFile(this.inside(path), 'utf8');
    } catch {
      return undefined;
    }
  }

  private start(command: string, args: string[], env: Record<string, string> | undefined, stdin: 'ignore' | 'pipe'): ChildProcess {
    const child = spawn(command === 'node' ? process.execPath : command, args, {
      cwd: this.root,
      env: cleanEnv(this.root, env),
      detached: true, // its own process group, so the whole tree can be killed
      stdio: [stdin, 'pipe', 'pipe'],
    });
    this.children.add(child);
    live.add(child);
    child.once('exit', () => {
      this.children.delete(child);
      live.delete(child);
    });
    return child;
  }

  /**
   * One round of a long-lived `node <script>` (started on first use, kept between calls while
   * the environment stays the same, stopped by kill): see WarmProcess.
   */
  async runWarm(script: string, opts: RunOptions): Promise<RunResult> {
    return this.warm.round(script, opts);
  }

  run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
    const child = this.start(command, args, opts.env, 'ignore');
    // A timed-out run says so with timedOut; this sandbox enforces no other limit to report.
    return watchChild(child, { timeoutMs: opts.timeoutMs, maxOutput: this.maxOutput, endsOn: 'exit' }).then(({ limit: _limit, ...result }) => result);
  }

  async kill(): Promise<void> {
    for (const child of this.children) killGroup(child);
  }

  async dispose(): Promise<void> {
    await this.kill();
    await rm(this.root, { recursive: true, force: true });
    roots.delete(this.root);
  }
}
