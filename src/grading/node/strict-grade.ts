/**
 * Strict grading: the hidden tests run in one confined sandbox, the learner's modules in another,
 * and the tests reach the learner's code only through the channel (strict-handoff.ts) and its
 * protocol (exercises/_env/strict/README.md). The learner's process never sees the tests, the
 * reporter, the results or the tests' process; whatever it does to itself cannot change a verdict.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GradeInputError, validateLearnerFiles } from '../core/index.ts';
import { ENV_DIR } from './fs-source.ts';
import { awaitedLater } from './awaited-later.ts';
import { gradeWith, type GradeOptions, type GradeRequest } from '../core/index.ts';
import { exportNames, strictProxySource } from './strict-proxy.ts';
import { startHandoff } from './strict-handoff.ts';
import { PLAIN_LIST, stripLearnerTypes } from './strict-strip.ts';
import type { Report, RunLimit, RunOptions, RunResult, Sandbox } from '../core/index.ts';
import type { Socket } from 'node:net';

export const STRICT_VIOLATIONS_FILE = 'grader-strict-violations.jsonl';
/** The membrane, which both sides run (exercises/_env/strict/README.md). */
const MEMBRANE = ['channel.mjs', 'wire.mjs', 'handles.mjs', 'codec.mjs', 'known.mjs', 'mirrors.mjs', 'serve.mjs', 'rpc.mjs', 'membrane.mjs', 'http-bridge.mjs'];
const TEST_SIDE = [...MEMBRANE, 'client.mjs', 'timers.mjs'];
const LEARNER_SIDE = [...MEMBRANE, 'learner-host.mjs'];

/** A sandbox that can hand a connected socket to a process it starts (ConfinedSandbox). */
export interface SocketSandbox extends Sandbox {
  runWithSocket(command: string, args: string[], opts: RunOptions, socket: Socket): Promise<RunResult>;
}

export const canHandOverSockets = (s: Sandbox): s is SocketSandbox => typeof (s as Partial<SocketSandbox>).runWithSocket === 'function';

export interface StrictSandboxes {
  /** Runs vitest with the hidden suite; never sees the learner's files. */
  tests: Sandbox;
  /** Runs the learner's modules; never sees the tests. */
  learner: SocketSandbox;
}

/** What strict grading noticed that an honest submission never does (shown as "tampering suspected"). */
export type Suspicion = 'protocol-violation' | 'learner-process-exited' | 'learner-process-killed';

export interface StrictOutcome {
  report: Report;
  suspicions: Array<{ kind: Suspicion; detail: string }>;
  /** The limits the learner's processes were stopped at (a full disk of their own, too many files, memory), not their time. */
  learnerLimits: RunLimit[];
}

const limitText = (limit: RunLimit) =>
  limit.kind === 'time'
    ? `time limit ${limit.ms} ms`
    : limit.kind === 'memory'
      ? `memory limit ${limit.mb} MB`
      : limit.kind === 'disk'
        ? `disk limit ${limit.mb} MB`
        : `file limit ${limit.count} files`;

let strictFiles: Promise<Record<string, string>> | undefined;
const loadStrictFiles = () =>
  (strictFiles ??= (async () => {
    const out: Record<string, string> = {};
    for (const name of new Set([...TEST_SIDE, ...LEARNER_SIDE])) out[name] = await readFile(join(ENV_DIR, 'strict', name), 'utf8');
    return out;
  })());

export async function gradeStrict(request: GradeRequest, sandboxes: StrictSandboxes, opts: GradeOptions): Promise<StrictOutcome> {
  const bundle = await opts.source.load(request.exerciseId);
  if (!bundle) throw new GradeInputError('unknown-exercise', { id: request.exerciseId, known: (await opts.source.ids()).join(', ') });
  const { exercise } = bundle;
  validateLearnerFiles(exercise, request.files);
  const { tests, learner } = sandboxes;
  if (!tests.root || !learner.root) throw new Error('strict grading needs two sandboxes with a root on disk');
  // The same limits as in one process: a verdict may depend on a test's timeout (a learner's 5 s
  // timer against a 2 s test), so they cannot be stretched for the slower calls across processes.
  const runTimeoutMs = opts.runTimeoutMs ?? exercise.limits.runTimeoutMs;
  const strict = await loadStrictFiles();

  const sources: Record<string, string> = {};
  for (const f of exercise.files) sources[f.path] = f.editable ? request.files[f.path]! : (bundle.starter[f.path] ?? '');
  const stripped = stripLearnerTypes(sources);
  const learnerFiles: Record<string, string> = { 'package.json': '{ "type": "module" }\n', [PLAIN_LIST]: JSON.stringify(stripped.plain) };
  for (const [path, text] of Object.entries(stripped.files)) learnerFiles[`src/${path}`] = text;
  for (const name of LEARNER_SIDE) learnerFiles[`strict/${name}`] = strict[name]!;
  await learner.mount(learnerFiles);

  const testFiles: Record<string, string> = { [STRICT_VIOLATIONS_FILE]: '' };
  for (const name of TEST_SIDE) testFiles[`strict/${name}`] = strict[name]!;
  await tests.mount(testFiles);
  const proxies: Record<string, string> = {};
  // Read-only files (shared helpers) are the course's own code: they run on both sides as they are.
  for (const f of exercise.files.filter((file) => file.editable)) {
    // By absolute path: a suite may copy the module elsewhere and load it in a child process (D8).
    const client = join(tests.root, 'strict', 'client.mjs');
    proxies[f.path] = strictProxySource(f.path, exportNames(f.path, bundle.tests, bundle.starter[f.path] ?? ''), client);
  }

  // One learner's process per connection from the tests' side, which it takes over.
  const runs: Array<Promise<RunResult>> = [];
  const handoff = await startHandoff(tests.root, (socket) => {
    // Awaited once the tests are done. A run that fails meanwhile (a grader stopping on Ctrl-C
    // refuses to start one) must not end Node with exit code 1 before the signal's exit (130).
    runs.push(
      awaitedLater(
        learner.runWithSocket(
          'node',
          ['--experimental-transform-types', '--disable-warning=ExperimentalWarning', 'strict/learner-host.mjs', '3'],
          { timeoutMs: runTimeoutMs },
          socket,
        ),
      ),
    );
  });
  let report: Report;
  let noticed: string | undefined;
  let ended: RunResult[];
  try {
    report = await gradeWith({ ...request, files: proxies }, tests, { ...opts, typecheck: false });
    // Read before the learner's processes are killed: a tests' process still alive then (a suite's
    // child process) would record their end as a learner's process leaving first.
    noticed = await tests.readFile(STRICT_VIOLATIONS_FILE);
  } finally {
    await handoff.close();
    await learner.kill();
    ended = await Promise.all(runs);
  }
  const suspicions: StrictOutcome['suspicions'] = [];
  let left = false;
  for (const line of noticed?.split('\n') ?? []) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { why?: unknown; left?: unknown };
      const detail = String(entry.why).slice(0, 300);
      if (entry.left !== undefined) left = true;
      // Each tests' process records its first violation once (client.mjs), but a suite may start
      // several (a child process of its own): the same violation is one suspicion.
      else if (!suspicions.some((s) => s.detail === detail)) suspicions.push({ kind: 'protocol-violation', detail });
    } catch {
      // the file is the tests' own; a broken line is ignored
    }
  }
  // A learner's process ended the channel while the tests still had it: say how it ended (a limit,
  // or the exit code and the end of its output). The processes that were still running have been
  // killed by now, so the one that ended on its own is the one that stopped at a limit or exited first.
  if (left) {
    const first = ended.find((r) => r.limit) ?? ended.find((r) => !r.timedOut && r.exitCode !== null) ?? ended[0];
    suspicions.push(
      !first
        ? { kind: 'learner-process-exited', detail: 'it closed the channel while the tests still needed it' }
        : first.limit
          ? { kind: 'learner-process-killed', detail: limitText(first.limit) }
          : { kind: 'learner-process-exited', detail: `exit code ${String(first.exitCode)}: ${first.output.trim().slice(-300)}` },
    );
  }
  return { report, suspicions, learnerLimits: ended.flatMap((r) => (r.limit && r.limit.kind !== 'time' ? [r.limit] : [])) };
}
