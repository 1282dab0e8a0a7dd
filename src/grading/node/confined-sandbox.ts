// A sandbox for other people's code: each run is confined by bubblewrap (it sees only its
// workspace, the exercise environment, the Node binary and /usr; it writes only its workspace
// and a small private /tmp; its network is its own loopback), and stopped at a time limit and a
// memory limit on its whole process tree. See docs/security.md for what it does not cover.
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { readdirSync, statfsSync, type StatsFs } from 'node:fs';
import type { Writable } from 'node:stream';
import { chmod, chown, mkdir, mkdtemp, readdir, realpath, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Bilingual } from '../../i18n/index.ts';
import { bwrapCommand, type BwrapPlan } from './bwrap-args.ts';
import { confinementStatus, etcFiles, findExecutable, NO_REASON, sandboxOwner, systemEntries } from './confinement.ts';
import { ENV_DIR } from './fs-source.ts';
import { processTree, treeMemoryMb } from './proc-tree.ts';
import { liveSandboxes } from './live-sandboxes.ts';
import { removeTree } from './remove-tree.ts';
import { safeRead, safeWrite } from './safe-fs.ts';
import type { RunLimit, RunOptions, RunResult, Sandbox } from '../core/index.ts';
import { WarmProcess, WarmSlot } from './warm-process.ts';
import { ChildGroup, killGroup, watchChild } from './child-run.ts';

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
  /**
   * A learner's process (strict grading: `runWithSocket`) writes only into memory of its own: its
   * workspace and its /tmp are private tmpfs of this size each (MB), and its /dev/shm 1 MB. A process
   * that fills one of them is stopped at the limit. Default 16 (an honest grade writes nothing there).
   */
  learnerDiskMb?: number;
  /** Files and folders a learner's process may make in those three, together; stopped above it. Default 1000. */
  learnerMaxFiles?: number;
}

export class ConfinementUnavailableError extends Error {
  constructor(readonly reason: Bilingual) {
    super(`Cannot confine graded runs on this machine: ${reason.en}`);
    this.name = 'ConfinementUnavailableError';
  }
}

// Kernel messages a run prints when it hit the per-process data limit or V8's heap limit.
const OUT_OF_MEMORY = /JavaScript heap out of memory|Fatal process out of memory|Array buffer allocation failed/;
const MAX_READ_BYTES = 32 * 1024 * 1024;
const DATA_SLACK_MB = 1024;
const MB = 1024 * 1024;
const SHM_BYTES = 1024 * 1024;
const TMPFS_MAGIC = 0x01021994;
// Where a learner's process finds Node: a path that says nothing of the host's folders.
const LEARNER_NODE = '/opt/node/bin/node';

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
  /** The folder those packages come from. */
  modulesDir: string;
  readOnly: string[];
}

export class ConfinedSandbox implements Sandbox {
  readonly root: string;
  /** The environment's packages: `<root>/node_modules` shows them only inside the confinement. */
  readonly nodeModules: string;
  private readonly children = new ChildGroup(liveSandboxes);
  private readonly memoryMb: number;
  private readonly processes: number;
  private readonly fileBytes: number;
  private readonly tmpBytes: number;
  private readonly pollMs: number;
  private readonly maxOutput: number;
  private readonly learnerDiskBytes: number;
  private readonly learnerMaxFiles: number;

  private constructor(
    private readonly setup: Setup,
    opts: ConfinedSandboxOptions,
  ) {
    this.root = setup.root;
    this.nodeModules = setup.modulesDir;
    this.memoryMb = opts.memoryMb ?? 1024;
    this.processes = opts.maxProcesses ?? 512;
    this.fileBytes = (opts.maxFileMb ?? 64) * 1024 * 1024;
    this.tmpBytes = (opts.tmpMb ?? 64) * 1024 * 1024;
    this.pollMs = opts.pollMs ?? 100;
    this.maxOutput = opts.maxOutputChars ?? 64_000;
    this.learnerDiskBytes = (opts.learnerDiskMb ?? 16) * MB;
    this.learnerMaxFiles = opts.learnerMaxFiles ?? 1000;
  }

  /** A fresh confined workspace; throws ConfinementUnavailableError where runs cannot be confined. */
  static async create(opts: ConfinedSandboxOptions = {}): Promise<ConfinedSandbox> {
    const status = confinementStatus();
    if (!status.available) throw new ConfinementUnavailableError(status.reason ?? NO_REASON);
    const bwrap = findExecutable('bwrap')!;
    const prlimit = findExecutable('prlimit', ['/usr/bin/prlimit'])!;
    const owner = sandboxOwner();

    // base/ (private) holds etc/ (the run's /etc files) and work/ (the workspace, `root`).
    // Real path: bubblewrap mounts the workspace at the same path, which must hold no link.
    const made = await mkdtemp(join(tmpdir(), 'grade-confined-'));
    liveSandboxes.folder(made); // at once: a signal from here on still finds it
    const base = await realpath(made);
    if (base !== made) {
      liveSandboxes.folder(base);
      liveSandboxes.forget(made);
    }
    const root = join(base, 'work');
    liveSandboxes.assertRunning(); // a folder made again after the signal's removal would stay
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
    const envModules = await realpath(opts.nodeModules ?? join(ENV_DIR, 'node_modules'));
    const nodeModules: Record<string, string> = {};
    for (const name of (await readdir(envModules)).sort()) {
      if (name !== '.vite-temp') nodeModules[name] = await realpath(join(envModules, name));
    }
    const readOnly = [await realpath(process.execPath), ...(opts.readOnlyPaths ?? typescriptPackage())];
    return new ConfinedSandbox({ bwrap, prlimit, base, root, owner, etc, nodeModules, modulesDir: envModules, readOnly }, opts);
  }

  async mount(files: Record<string, string>): Promise<void> {
    for (const [path, text] of Object.entries(files)) {
      liveSandboxes.assertRunning();
      await safeWrite(this.root, path, text, this.setup.owner);
    }
  }

  async readFile(path: string): Promise<string | undefined> {
    return safeRead(this.root, path, MAX_READ_BYTES);
  }

  private plan(command: string, args: string[], env: Record<string, string> = {}, learner = false): BwrapPlan {
    const s = this.setup;
    const node = s.readOnly[0]!;
    // A learner's process needs Node and its own files only: no packages, no type checker, and its
    // workspace in memory (the files the grader wrote bound read-only into it).
    const own = learner
      ? {
          readOnly: [],
          readOnlyAt: { [node]: LEARNER_NODE },
          nodeModules: {},
          tmpBytes: this.learnerDiskBytes,
          privateWorkspace: { bytes: this.learnerDiskBytes, entries: readdirSync(s.root).filter((n) => n !== 'node_modules') },
        }
      : { readOnly: s.readOnly, nodeModules: s.nodeModules, tmpBytes: this.tmpBytes };
    return {
      system: systemEntries(),
      etc: s.etc,
      workspace: s.root,
      ...own,
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
      command: command === 'node' ? (learner ? LEARNER_NODE : node) : command,
      args,
    };
  }

  private spawnConfined(command: string, args: string[], env: Record<string, string> | undefined, stdin: 'ignore' | 'pipe', socket?: Socket): ChildProcess {
    const { options, command: line } = bwrapCommand(this.plan(command, args, env, socket !== undefined));
    // A socket handed to the run is its fd 3 (bubblewrap and prlimit pass it on to the command); the
    // options come through the next descriptor, which bubblewrap reads and closes before the command.
    const optionsFd = socket ? 4 : 3;
    // Detached (its own process group), so kill() reaches bwrap whatever the run does.
    const child = this.children.spawn(this.setup.bwrap, ['--args', String(optionsFd), ...line], {
      cwd: this.setup.base,
      env: { PATH: '/usr/bin:/bin' },
      stdio: [stdin, 'pipe', 'pipe', ...(socket ? [socket] : []), 'pipe'],
      ...(this.setup.owner ?? {}),
    });
    const optionsPipe = child.stdio[optionsFd] as Writable | null;
    optionsPipe?.on('error', () => undefined); // bubblewrap that failed to start reads nothing
    optionsPipe?.end(options.map((o) => `${o}\0`).join(''));
    return child;
  }

  /** The memory of the run's whole tree, measured while it lasts. */
  private readonly memoryPoll = (child: ChildProcess) => ({
    everyMs: this.pollMs,
    check: (): RunLimit | undefined => (child.pid !== undefined && treeMemoryMb(child.pid) > this.memoryMb ? { kind: 'memory', mb: this.memoryMb } : undefined),
  });

  /**
   * A learner's process: its memory, and what it wrote. bubblewrap cannot give a tmpfs an inode limit
   * (`--size` only), so the files are counted from outside, with statfs on the sandbox's own mounts
   * (through /proc/<its pid 1>/root, one call per mount, however many files): a process past
   * `learnerMaxFiles`, or with a mount full, is stopped like one past its memory.
   */
  private readonly learnerPoll = (child: ChildProcess) => {
    const memory = this.memoryPoll(child);
    const areas = [
      { path: this.setup.root, bytes: this.learnerDiskBytes },
      { path: '/tmp', bytes: this.learnerDiskBytes },
      { path: '/dev/shm', bytes: SHM_BYTES },
    ];
    let init: number | undefined;
    const peak = { bytes: 0, files: 0 };
    this.written.push(peak);
    return {
      everyMs: this.pollMs,
      check: (): RunLimit | undefined => {
        const over = memory.check();
        if (over || child.pid === undefined) return over;
        init ??= processTree(child.pid)[1];
        return init === undefined ? undefined : writtenOverLimit(init, areas, this.learnerMaxFiles, peak);
      },
    };
  };

  private readonly written: Array<{ bytes: number; files: number }> = [];
  /**
   * The most each learner's process of this sandbox had written at once (bytes and files in its
   * workspace, /tmp and /dev/shm, bubblewrap's mount points included), as the polls saw it.
   */
  get learnerWrites(): ReadonlyArray<Readonly<{ bytes: number; files: number }>> {
    return this.written;
  }

  // A process that died of the per-process data limit or of V8's heap limit says so.
  private readonly outOfMemory = (output: string): RunLimit | undefined => (OUT_OF_MEMORY.test(output) ? { kind: 'memory', mb: this.memoryMb } : undefined);

  run(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
    return this.watch(this.spawnConfined(command, args, opts.env, 'ignore'), opts);
  }

  /**
   * `run`, with a connected socket as the command's fd 3: strict grading hands each connection of
   * the tests' side to a fresh learner's process this way, so no other process carries its bytes.
   * Such a process is a learner's: it gets Node and the workspace's files only (read-only), its
   * workspace and /tmp are private tmpfs of `learnerDiskMb`, and it is stopped when one fills up or
   * past `learnerMaxFiles` files.
   */
  runWithSocket(command: string, args: string[], opts: RunOptions, socket: Socket): Promise<RunResult> {
    const child = this.spawnConfined(command, args, opts.env, 'ignore', socket);
    return this.watch(child, opts, this.learnerPoll(child));
  }

  private watch(child: ChildProcess, opts: RunOptions, poll = this.memoryPoll(child)): Promise<RunResult> {
    return watchChild(child, {
      timeoutMs: opts.timeoutMs,
      maxOutput: this.maxOutput,
      // 'close', not 'exit': the output is complete, and the pid namespace (every process of the run)
      // is gone once bwrap's pipes close.
      endsOn: 'close',
      poll,
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
    this.children.killAll();
  }

  async dispose(): Promise<void> {
    await this.kill();
    await removeTree(this.setup.base);
    liveSandboxes.forget(this.setup.base);
  }
}

/** A mount of the sandbox that is full, or more files in them all than `maxFiles`; undefined while it runs within both. */
function writtenOverLimit(
  init: number,
  areas: Array<{ path: string; bytes: number }>,
  maxFiles: number,
  peak: { bytes: number; files: number },
): RunLimit | undefined {
  const usages: StatsFs[] = [];
  for (const area of areas) {
    let usage: StatsFs;
    try {
      usage = statfsSync(`/proc/${init}/root${area.path}`);
    } catch {
      return undefined; // ended meanwhile
    }
    // Until bubblewrap has built the sandbox, its pid 1 still sees the host's folders there: only
    // once each path is the private tmpfs of its size is anything counted.
    if (usage.type !== TMPFS_MAGIC || usage.blocks * usage.bsize !== area.bytes) return undefined;
    usages.push(usage);
  }
  let files = 0;
  let bytes = 0;
  for (const [i, usage] of usages.entries()) {
    if (usage.bfree === 0) return { kind: 'disk', mb: areas[i]!.bytes / MB };
    files += usage.files - usage.ffree;
    bytes += (usage.blocks - usage.bfree) * usage.bsize;
  }
  peak.bytes = Math.max(peak.bytes, bytes);
  peak.files = Math.max(peak.files, files);
  return files > maxFiles ? { kind: 'files', count: maxFiles } : undefined;
}
