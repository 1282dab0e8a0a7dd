// The types every runner and sandbox share: a run's options and result, the Report a learner sees
// (tests, rules, locations), and the Sandbox a grade runs in.
import type { Lang } from '../../i18n/index.ts';

export type { Lang };

export interface Location {
  file: string;
  line: number;
  column: number;
  message: string;
}

export type TestStatus = 'pass' | 'fail' | 'error';

export interface TestReport {
  /** Rule id from the start of the test name, e.g. `R7`. */
  rule: string;
  /** The test's own name, e.g. `R7 waits the full-jitter delay before each retry`. */
  name: string;
  status: TestStatus;
  /** Failed: the rule's message. Passed: the rule's title (what the test proved). */
  message: string;
  /** Failed: the rule's hint. Passed: empty. */
  hint: string;
  /** What the test observed (assertion text), capped; empty when it passed. */
  details: string;
  /** The test ran out of time (per-test timeout, or the run was stopped while it ran). */
  timedOut?: boolean;
  /** The run was stopped before this test started: it says nothing about the rule. */
  notRun?: boolean;
  duration: number;
  /** Console output of the test, capped at 500 characters. */
  output: string;
}

export interface Report {
  version: 3;
  status: TestStatus;
  message?: string;
  error?: Location;
  tests: TestReport[];
  /**
   * Rules of the exercise with no test in `tests` because the run was stopped before their tests
   * were even loaded (so `counts.total` is not the suite's size).
   */
  notRunRules?: string[];
  typeErrors: Location[];
  counts: { passed: number; failed: number; total: number };
  durationMs: number;
  /**
   * Where the learner's code ran, when the grader says so (the local runner does): confined
   * (bubblewrap, no network, only its workspace writable) or plain child processes running as the user.
   */
  sandbox?: { confined: boolean; mechanism: string };
}

export interface RunOptions {
  timeoutMs: number;
  env?: Record<string, string>;
}

/**
 * A limit that stopped a run: its time limit, the memory of its whole process tree, or (a learner's
 * process in strict grading) a full disk of its own or too many files in it.
 */
export type RunLimit = { kind: 'time'; ms: number } | { kind: 'memory'; mb: number } | { kind: 'disk'; mb: number } | { kind: 'files'; count: number };

export interface RunResult {
  exitCode: number | null;
  /** stdout and stderr merged, capped. */
  output: string;
  timedOut: boolean;
  durationMs: number;
  /** Which limit stopped the run, when one did (set by sandboxes that enforce limits). */
  limit?: RunLimit;
}

/** Where a grading run happens: a temp directory (Node), a WebContainer (browser), or a fake. */
export interface Sandbox {
  /** Absolute path of the sandbox root, when it has one; removed from paths in reports. */
  readonly root?: string;
  /**
   * Where, on this machine, the packages its runs see at `<root>/node_modules` are, when that folder
   * does not show them to a reader outside the sandbox: a confined sandbox's holds only the empty mount
   * points bubblewrap makes, the packages being bound there inside the confinement alone. The warm type
   * checker reads the workspace from outside, so it resolves `node_modules` here.
   */
  readonly nodeModules?: string;
  /** Writes files (paths relative to the sandbox root, `/`-separated), creating folders. */
  mount(files: Record<string, string>): Promise<void>;
  /** Runs a command in the sandbox root. `node` means the sandbox's Node. Never outlives timeoutMs. */
  run(command: string, args: string[], opts: RunOptions): Promise<RunResult>;
  /**
   * Optional: one round of a long-lived `node <script>` kept between calls (a warm test runner),
   * so re-grading skips start-up. Same limits and result as `run`.
   */
  runWarm?(script: string, opts: RunOptions): Promise<RunResult>;
  /** The file's text, or undefined when it does not exist. */
  readFile(path: string): Promise<string | undefined>;
  /** Stops the running command and everything it started. */
  kill(): Promise<void>;
  /** Frees the sandbox (kills, then removes its files). */
  dispose?(): Promise<void>;
}

/** A type checker kept between grades (on the command line, the node/ back-end's warm TypeScript service). */
export interface TypeChecker {
  /** Checks `<root>/src`, reading `<root>/node_modules` from `nodeModules` when given (see Sandbox.nodeModules). */
  check(root: string, nodeModules?: string): Promise<string>;
  /** Drops what was kept for a root (its sandbox was freed). */
  forget(root: string): void;
}
