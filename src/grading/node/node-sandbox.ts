/**
 * The plain sandbox: a temporary folder and child processes with a clean environment, used where
 * the learner runs their own code on their own machine. It confines nothing (ConfinedSandbox does).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { ENV_DIR } from './fs-source.ts';
import type { RunOptions, RunResult, Sandbox } from '../core/index.ts';
import { WarmProcess, WarmSlot } from './warm-process.ts';
import { ChildGroup, killGroup, watchChild } from './child-run.ts';
import { liveSandboxes } from './live-sandboxes.ts';
import { removeTree } from './remove-tree.ts';

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
// means a Ctrl-C of the grader would not reach them: live-sandboxes.ts kills them and removes the
// folders when this process ends.
export { killSandboxesOnSignals } from './live-sandboxes.ts';

/**
 * A temporary directory and child processes, each run in its own process group, with a clean
 * environment. Not confined: the code runs as the user who started it, with their files and network
 * (ConfinedSandbox is the confined one).
 */
export class NodeSandbox implements Sandbox {
  readonly root: string;
  /** What `<root>/node_modules` links to. */
  readonly nodeModules: string;
  private readonly children = new ChildGroup(liveSandboxes);
  private readonly maxOutput: number;
  private readonly warm = new WarmSlot((script, env) => {
    const child = this.start('node', [script], env, 'pipe');
    return new WarmProcess(child, () => killGroup(child), this.maxOutput);
  });

  private constructor(root: string, nodeModules: string, maxOutput: number) {
    this.root = root;
    this.nodeModules = nodeModules;
    this.maxOutput = maxOutput;
  }

  static async create(opts: NodeSandboxOptions = {}): Promise<NodeSandbox> {
    const root = await mkdtemp(join(tmpdir(), 'grade-'));
    liveSandboxes.folder(root);
    const nodeModules = opts.nodeModules ?? join(ENV_DIR, 'node_modules');
    await symlink(nodeModules, join(root, 'node_modules'), 'dir');
    return new NodeSandbox(root, nodeModules, opts.maxOutputChars ?? 64_000);
  }

  private inside(path: string): string {
    const full = resolve(this.root, path);
    if (!full.startsWith(this.root + sep)) throw new Error(`path outside the sandbox: ${path}`);
    return full;
  }

  async mount(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      liveSandboxes.assertRunning();
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
    return this.children.spawn(command === 'node' ? process.execPath : command, args, {
      cwd: this.root,
      env: cleanEnv(this.root, env),
      stdio: [stdin, 'pipe', 'pipe'],
    });
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
    this.children.killAll();
  }

  async dispose(): Promise<void> {
    await this.kill();
    await removeTree(this.root);
    liveSandboxes.forget(this.root);
  }
}
