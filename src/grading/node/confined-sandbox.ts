// A sandbox for other people's code: each run is confined by bubblewrap (it sees only its
// workspace, the exercise environment, the Node binary and /usr; it writes only its workspace
// and a small private /tmp; its network is its own loopback), and stopped at a time limit and a
// memory limit on its whole process tree. See exercises/README.md for what it does not cover.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { rmSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { bwrapArgs, type BwrapPlan } from './bwrap-args.ts';
import { confinementStatus, etcFiles, findExecutable, sandboxOwner, systemEntries } from './confinement.ts';
import { ENV_DIR } from './fs-source.ts';
import { treeMemoryMb } from './proc-tree.ts';
import { safeRead, safeWrite } from './safe-fs.ts';
import type { RunLimit, RunOptions, RunResult, Sandbox } from '../core/types.ts';
import { WarmProcess, WarmSlot } from './warm-process.ts';
import { killGroup, watchChild } from './child-run.ts';

export interface ConfinedSandboxOptions {
  /** Memory of one run's whole process tree (MB); the run is killed above it. Default 1024. */
  memoryMb?: number;
  /** Processes and threads one run may have at once (kernel limit). Default 512. */
  maxProcesses?: number;
  /** Largest file a run may write (MB, kernel limit). Default 64. */
  maxFileMb?: number;
  /** Size of the run's private /tmp (MB). Default 64. */
  tmpMb?: number;
  /** How often the memory of the tree is measured (ms). Default 100. */
  pollMs?: number;
  /** The installed exercise environment's node_modules, mounted read-only. */
  nodeModules?: string;
  /** Further host paths runs may read, at the same path. Default: the repository's TypeScript package, for type checking. */
  readOnlyPaths?: string[];
  /** Cap on the merged stdout + stderr kept from one run. */
  maxOutputChars?: number;
}

export class ConfinementUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`Cannot confine graded runs on this machine: ${reason}`);
    this.name = 'ConfinementUnavailableError';
  }
}

// Kernel messages a run prints when it hit the per-process data limit or V8's heap limit.
const OUT_OF_MEMORY = /JavaScript heap out of memory|Fatal process out of memory|Array buffer allocation failed/;
const MAX_READ_BYTES = 32 * 1024 * 1024;
const DATA_SLACK_MB = 1024;

const live = new Set<ChildProcess>();
const bases = new Set<string>();
process.once('exit', () => {
  for (const child of live) killGroup(child);
  for (const base of bases) rmSync(base, { recursive: true, force: true });
});

// killGroup reaches bwrap's process group; the pid namespace inside dies with bwrap
// (--die-with-parent), and with it every process the submission started, however it detached.

/** The TypeScript package the command-line type check runs from, when installed. */
function typescriptPackage(): string[] {
  try {
    return [dirname(createRequire(import.meta.url).resolve('typescript/package.json'))];
  } catch {
    return [];
  }
}

interface Setup {
  bwrap: string;
  prlimit: string;
  base: string;
  root: string;
  owner: { uid: number; gid: number } | undefined;
  etc: Record<string, string>;
  nodeModules: Record<string, string>;
  readOnly: string[];
}

export class ConfinedSandbox implements Sandbox {
  readonly root: string;
  private readonly children = new Set<ChildProcess>();
  private readonly memoryMb: number;
  private readonly processes: number;
  private readonly fileBytes: number;
  private readonly tmpBytes: number;
  private readonly pollMs: number;
  private readonly maxOutput: number;

  private constructor(
    private readonly setup: Setup,
    opts: ConfinedSandboxOptions,
  ) {
    this.root = setup.root;
    this.memoryMb = opts.memoryMb ?? 1024;
    this.processes = opts.maxProcesses ?? 512;
    this.fileBytes = (opts.maxFileMb ?? 64) * 1024 * 1024;
    this.tmpBytes = (opts.tmpMb ?? 64) * 1024 * 1024;
    this.pollMs = opts.pollMs ?? 100;
    this.maxOutput = opts.maxOutputChars ?? 64_000;
  }

  /** A fresh confined workspace; throws ConfinementUnavailableError where runs cannot be confined. */
  static async create(opts: ConfinedSandboxOptions = {}): Promise<ConfinedSandbox> {
    const status = confinementStatus();
    if (!status.available) throw new ConfinementUnavailableError(status.reason ?? 'unknown');
    const bwrap = findExecutable('bwrap')!;
    const prlimit = findExecutable('prlimit', ['/usr/bin/prlimit'])!;
    const owner = sandboxOwner();

    // base/ (private) holds etc/ (the run's /etc files) and work/ (the workspace, `root`).
    // Real path: bubblewrap mounts the workspace at the same path, which must hold no link.
    const base = await realpath(await mkdtemp(join(tmpdir(), 'grade-confined-')));
    bases.add(base);
    const root = join(base, 'work');
    await mkdir(join(root, 'node_modules', '.vite-temp'), { recursive: true });
    await mkdir(join(base, 'etc'));
    const etc: Record<string, string> = {};
    const who = owner ?? { uid: process.getuid!(), gid: process.getgid!() };
    for (const [name, text] of Object.entries(etcFiles(root, who))) {
      etc[name] = join(base, 'etc', name);
      await writeFile(etc[name], text);
    }
    if (owner) {
      for (const dir of [base, root, join(root, 'node_modules'), join(root, 'node_modules', '.vite-temp')]) await chown(dir, owner.uid, owner.gid);
    }
    await chmod(base, 0o700);

    // The environment's packages, each mounted read-only; node_modules itself stays the
    // workspace's, so vite can write its bundled config to node_modules/.vite-temp.
    const envModules = opts.nodeModules ?? join(ENV_DIR, 'node_modules');
    const nodeModules: Record<string, string> = {};
    for (const name of (await readdir(envModules)).sort()) {
      if (name !== '.vite-temp') nodeModules[name] = await realpath(join(envModules, name));
    }
    const readOnly = [await realpath(process.execPath), ...(opts.readOnlyPaths ?? typescriptPackage())];
    return new ConfinedSandbox({ bwrap, prlimit, base, root, owner, etc, nodeModules, readOnly }, opts);
  }

  async mount(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) await safeWrite(this.root, path, text, this.setup.owner);
  }

  async readFile(path: string): Promise<string | undefined> {
    return safeRead(this.root, path, MAX_READ_BYTES);
  }

  private plan(command: string, args: string[], env: Record<string, string> = {}): BwrapPlan {
    const s = this.setup;
    return {
      system: systemEntries(),
      etc: s.etc,
      readOnly: s.readOnly,
      workspace: s.root,
      nodeModules: s.nodeModules,
      tmpBytes: this.tmpBytes,
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: s.root,
        TMPDIR: '/tmp',
        LANG: 'C.UTF-8',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        CI: '1',
        // A clean "heap out of memory" for one runaway heap, before the tree's limit is reached.
        NODE_OPTIONS: `--max-old-space-size=${Math.max(64, Math.floor(this.memoryMb * 0.75))}`,
        ...env,
      },
      prlimit: s.prlimit,
      // A per-process ceiling the kernel enforces at once, for allocations faster than the poll.
      // V8 reserves about 600 MB of address space that counts as data before any allocation.
      limits: { processes: this.processes, fileBytes: this.fileBytes, dataBytes: (this.memoryMb + DATA_SLACK_MB) * 1024 * 1024 },
      command: command === 'node' ? s.readOnly[0]! : command,
      args,
    };
  }

  private spawnConfined(command: string, args: string[], env: Record<string, string> | undefined, stdin: 'ignore' | 'pipe', socket?: Socket): ChildProcess {
    const child = spawn(this.setup.bwrap, bwrapArgs(this.plan(command, args, env)), {
      cwd: this.setup.base,
      env: { PATH: '/usr/bin:/bin' },
      detached: true, // its own process group, so kill() reaches bwrap whatever the run does
      // A socket handed to the run is its fd 3 (bubblewrap and prlimit pass it on to the command).
      stdio: [stdin, 'pipe', 'pipe', ...(socket ? [socket] : [])],
      ...(this.setup.owner ?? {}),
    });
    this.children.add(child);
    live.add(child);
    child.once('close', () => {
      this.children.delete(child);
      live.delete(child);
    });
    return child;
  }

  /** The memory of the run's whole tree, measured while it lasts. */
  private readonly memoryPoll = (child: ChildProcess) => ({
    everyMs: this.pollMs,
    check: (): RunLimit | undefined => (child.pid !== undefined && treeMemoryMb(child.pid) > this.memoryMb ? { kind: 'memory', mb: this.memoryMb } : undefined),
  });

  // A process that died of the per-process data limit or of V8's heap limit says so.
  private readonly outOfMemory = (output: string): RunLimit | undefined => (OUT_OF_MEMORY.test(output) ? { kind: 'memory', mb: this.memoryMb } : undefined);

  run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
    return this.watch(this.spawnConfined(command, args, opts.env, 'ignore'), opts);
  }

  /**
   * `run`, with a connected socket as the command's fd 3: strict grading hands each connection of
   * the tests' side to a fresh learner's process this way, so no other process carries its bytes.
   */
  runWithSocket(command: string, args: string[], opts: RunOptions, socket: Socket): Promise<RunResult> {
    return this.watch(this.spawnConfined(command, args, opts.env, 'ignore', socket), opts);
  }

  private watch(child: ChildProcess, opts: RunOptions): Promise<RunResult> {
    return watchChild(child, {
      timeoutMs: opts.timeoutMs,
      maxOutput: this.maxOutput,
      // 'close', not 'exit': the output is complete, and the pid namespace (every process of the run)
      // is gone once bwrap's pipes close.
      endsOn: 'close',
      poll: this.memoryPoll(child),
      limitIn: this.outOfMemory,
    });
  }

  /**
   * One round of a long-lived, confined `node <script>` (a warm vitest: see WarmProcess), with the
   * same limits as `run`: a round past its time or its tree's memory limit kills the whole sandboxed
   * tree, and the next round starts a fresh one. Strict grading keeps the tests' sandbox warm this
   * way; no learner's code runs in it there.
   */
  runWarm(script: string, opts: RunOptions): Promise<RunResult> {
    return this.warm.round(script, opts);
  }

  private readonly warm = new WarmSlot((script, env) => {
    const child = this.spawnConfined('node', [script], env, 'pipe');
    return new WarmProcess(child, () => killGroup(child), this.maxOutput, { poll: this.memoryPoll(child), limitIn: this.outOfMemory });
  });

  async kill(): Promise<void> {
    for (const child of this.children) killGroup(child);
  }

  async dispose(): Promise<void> {
    await this.kill();
    await removeTree(this.setup.base);
    bases.delete(this.setup.base);
  }
}

/** rm -rf, even of folders a submission made unwritable (chmod 000) for a non-root grader. */
async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch {
    await makeWritable(path);
    await rm(path, { recursive: true, force: true });
  }
}

async function makeWritable(path: string): Promise<void> {
  const s = await lstat(path).catch(() => undefined);
  if (!s?.isDirectory()) return;
  await chmod(path, 0o700).catch(() => undefined);
  for (const name of await readdir(path).catch(() => [])) await makeWritable(join(path, name));
}
