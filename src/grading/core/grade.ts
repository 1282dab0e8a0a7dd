// One grade, the same for every runner: mount the exercise and the learner's files in a Sandbox, run
// the hidden suite (and the type check) under the watchdog, and map what came back into a Report.
import { GradeInputError, validateLearnerFiles } from './files.ts';
import { parseTscOutput } from './location.ts';
import { mapReport } from './map-report.ts';
import { EVENTS_FILE, PROGRESS_FILE, type ExerciseSource } from './source.ts';
import { parseJsonLines, type ProgressEvent } from './events.ts';
import { startWatchdog } from './watchdog.ts';
import type { Lang, Location, Report, RunOptions, RunResult, Sandbox, TypeChecker } from './types.ts';

export interface GradeRequest {
  exerciseId: string;
  /** The learner's editable files, by their declared paths (e.g. `retry.ts`). */
  files: Record<string, string>;
  lang: Lang;
}

/** A command run in the sandbox root that type-checks src/ with the env's tsconfig.json. */
export interface TypeCheckCommand {
  command: string;
  args: string[];
}

export interface GradeOptions {
  source: ExerciseSource;
  /** A command, or a warm checker (on a sandbox with a root on disk); omit or false to skip type checking. */
  typecheck?: TypeCheckCommand | TypeChecker | false;
  /** Override the exercise's limits (tests of the grader use short ones). */
  testTimeoutMs?: number;
  runTimeoutMs?: number;
  /** How often to look for a test stuck past its own timeout (a synchronous loop); 0 turns it off. */
  watchdogIntervalMs?: number;
  /** Keep vitest running in the sandbox between grades (when the sandbox can): re-grades start faster. */
  warm?: boolean;
}

export const VITEST_ARGS = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.config.mjs', '--pool=forks', '--maxWorkers=1'];
/** The warm alternative to VITEST_ARGS: same config and reporter, one round per grade. */
export const WARM_SCRIPT = 'grader-warm.mjs';

/** Grades the learner's files against an exercise's hidden suite inside `sandbox`. */
export async function gradeWith(request: GradeRequest, sandbox: Sandbox, opts: GradeOptions): Promise<Report> {
  const started = performance.now();
  const bundle = await opts.source.load(request.exerciseId);
  if (!bundle) {
    throw new GradeInputError('unknown-exercise', { id: request.exerciseId, known: (await opts.source.ids()).join(', ') });
  }
  const { exercise } = bundle;
  validateLearnerFiles(exercise, request.files);
  const testTimeoutMs = opts.testTimeoutMs ?? exercise.limits.testTimeoutMs;
  const runTimeoutMs = opts.runTimeoutMs ?? exercise.limits.runTimeoutMs;

  const mounted: Record<string, string> = { ...bundle.env, [EVENTS_FILE]: '', [PROGRESS_FILE]: '' };
  for (const [path, text] of Object.entries(bundle.tests)) mounted[`tests/${path}`] = text;
  for (const f of exercise.files) mounted[`src/${f.path}`] = f.editable ? request.files[f.path]! : (bundle.starter[f.path] ?? '');
  await sandbox.mount(mounted);

  const watchdog = startWatchdog({
    read: async () => parseJsonLines<ProgressEvent>(await sandbox.readFile(PROGRESS_FILE)),
    kill: () => sandbox.kill(),
    testTimeoutMs,
    intervalMs: opts.watchdogIntervalMs ?? 250,
  });
  const [run, typeOutput] = await Promise.all([
    runTests(sandbox, opts.warm === true, { timeoutMs: runTimeoutMs, env: { GRADER_TEST_TIMEOUT_MS: String(testTimeoutMs) } }).finally(() => watchdog.stop()),
    opts.typecheck ? typeCheck(sandbox, opts.typecheck, runTimeoutMs) : Promise.resolve(''),
  ]);
  const files = exercise.files.map((f) => f.path);
  const typeErrors: Location[] = parseTscOutput(typeOutput, files).filter((e) => exercise.files.some((f) => f.editable && f.path === e.file));

  return mapReport({
    exercise,
    lang: request.lang,
    events: await sandbox.readFile(EVENTS_FILE),
    progress: await sandbox.readFile(PROGRESS_FILE),
    run,
    stopped: watchdog.fired(),
    typeErrors,
    files,
    root: sandbox.root,
    testTimeoutMs,
    durationMs: performance.now() - started,
    ...(bundle.testList ? { expectedTests: bundle.testList } : {}),
  });
}

function runTests(sandbox: Sandbox, warm: boolean, opts: RunOptions): Promise<RunResult> {
  return warm && sandbox.runWarm ? sandbox.runWarm(WARM_SCRIPT, opts) : sandbox.run('node', VITEST_ARGS, opts);
}

async function typeCheck(sandbox: Sandbox, cmd: TypeCheckCommand | TypeChecker, timeoutMs: number): Promise<string> {
  if ('check' in cmd) return sandbox.root ? cmd.check(sandbox.root, sandbox.nodeModules) : '';
  const result: RunResult = await sandbox.run(cmd.command, cmd.args, { timeoutMs });
  return result.output;
}
