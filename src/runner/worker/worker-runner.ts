/**
 * The page's side of the worker runner: a fresh grading worker per run, the same watchdog and hard
 * limit as the Node grader (a test stuck past its timeout, or the whole run past the exercise's
 * limit, terminates the worker), and the same report mapping. Needs no server, no cross-origin
 * isolation and no network once the suite is cached.
 */
import type { Exercise } from '../../grading/core/index.ts';
import type { ProgressEvent } from '../../grading/core/index.ts';
import { GradeInputError, validateLearnerFiles } from '../../grading/core/files.ts';
import { mapReport } from '../../grading/core/map-report.ts';
import { t } from '../../grading/core/messages.ts';
import type { Report, RunResult } from '../../grading/core/index.ts';
import { startWatchdog } from '../../grading/core/watchdog.ts';
import { serialQueue } from '../run-queue.ts';
import { RunnerInputError, type GradeInput, type Runner, type RunProgress } from '../runner-types.ts';
import { hostChildren, type HostedWorker } from './child-host.ts';
import type { GradeJob, PageMessage, WorkerMessage } from './protocol.ts';

/** What the runner needs of a Worker (a fake in unit tests). */
export interface GradingWorker {
  onmessage: ((e: { data: WorkerMessage }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  postMessage(message: PageMessage): void;
  terminate(): void;
}

export interface WorkerRunnerDeps {
  createWorker(): GradingWorker;
  /** A "child process" worker for a suite that starts one (child-host.ts); without it, such a start fails. */
  createChildWorker?(): HostedWorker;
  /** The exercise definition (rules and messages), or undefined for an unknown id. */
  loadExercise(id: string): Promise<Exercise | undefined>;
  /** Every test of the exercise's suite (its test-list.json): a test the run never reached counts as failed. */
  loadTestList?(id: string): Promise<string[] | undefined>;
  suiteUrl(id: string): string;
  /** Shorter limits for tests of the runner itself. */
  limits?: { testTimeoutMs?: number; runTimeoutMs?: number; watchdogIntervalMs?: number };
}

interface Outcome {
  events: string;
  progress: string;
  run: RunResult;
  stopped: boolean;
}

/** Runs one job in a fresh worker; resolves when it is done, stopped or failed to start. */
function runJob(
  worker: GradingWorker,
  job: GradeJob,
  limits: { runTimeoutMs: number; intervalMs: number },
  createChildWorker: (() => HostedWorker) | undefined,
  onProgress?: (p: RunProgress) => void,
): Promise<Outcome> {
  const started = performance.now();
  const events: string[] = [];
  const counted = { done: 0, total: 0 };
  const progress: ProgressEvent[] = [];
  return new Promise<Outcome>((resolve, reject) => {
    let settled = false;
    const children = hostChildren(createChildWorker, (reply) => !settled && worker.postMessage(reply));
    const stop = () => {
      settled = true;
      watchdog.stop();
      clearTimeout(hardLimit);
      worker.terminate();
      children.stopAll();
    };
    const finish = (exitCode: number | null, timedOut: boolean) => {
      if (settled) return;
      stop();
      resolve({
        events: events.join('\n'),
        progress: progress.map((p) => JSON.stringify(p)).join('\n'),
        run: { exitCode, output: '', timedOut, durationMs: performance.now() - started },
        stopped: watchdog.fired(),
      });
    };
    // Not the learner's fault (their errors arrive as events): the suite or the worker script failed to load.
    const fail = (message: string) => {
      if (settled) return;
      stop();
      reject(new Error(message));
    };
    const watchdog = startWatchdog({ read: () => progress, kill: () => finish(null, false), testTimeoutMs: job.testTimeoutMs, intervalMs: limits.intervalMs });
    const hardLimit = setTimeout(() => finish(null, true), limits.runTimeoutMs);
    worker.onmessage = ({ data }) => {
      if (settled) return;
      if (data.type === 'event') {
        events.push(JSON.stringify(data.event));
        if (data.event.type === 'collected') counted.total += data.event.tests.length;
        else if (data.event.type === 'result') counted.done++;
        else return;
        onProgress?.({ ...counted });
      } else if (data.type === 'progress') progress.push(data.event);
      else if (data.type === 'child-start') children.start(data.child, data.job);
      else if (data.type === 'child-kill') children.kill(data.child);
      else if (data.type === 'done') finish(0, false);
      else fail(data.message);
    };
    worker.onerror = (e) => fail(e.message || 'the grading worker could not start');
    worker.postMessage(job);
  });
}

export function createWorkerRunner(deps: WorkerRunnerDeps): Runner {
  const queue = serialQueue();
  // The next run's worker is started as soon as a run ends: it loads its script and installs the
  // Node runtime (bench:worker in docs/benchmarks.md times a re-grade) while the learner reads the report, not while they wait
  // for the next one. It has run nothing, so every run still gets a fresh worker. One that failed to
  // start is replaced then, so the run reports the failure itself.
  let spare: { worker: GradingWorker; failed: boolean } | undefined;
  const prepareSpare = () => {
    const next = { worker: deps.createWorker(), failed: false };
    next.worker.onerror = () => {
      next.failed = true;
    };
    spare = next;
  };
  const takeWorker = (): GradingWorker => {
    const s = spare;
    spare = undefined;
    if (s && !s.failed) return s.worker;
    s?.worker.terminate();
    return deps.createWorker();
  };
  return {
    kind: 'worker',
    grade: (input: GradeInput, onProgress?: (progress: RunProgress) => void) =>
      queue(async (): Promise<Report> => {
        const exercise = await deps.loadExercise(input.exerciseId);
        if (!exercise) throw new RunnerInputError(t(input.lang, 'input.unknownExercise', { id: input.exerciseId, known: '' }));
        try {
          validateLearnerFiles(exercise, input.files);
        } catch (err) {
          if (err instanceof GradeInputError) throw new RunnerInputError(err.localized(input.lang));
          throw err;
        }
        const testTimeoutMs = deps.limits?.testTimeoutMs ?? exercise.limits.testTimeoutMs;
        const job: GradeJob = { suiteUrl: deps.suiteUrl(exercise.id), files: input.files, testTimeoutMs };
        const started = performance.now();
        let outcome: Outcome;
        try {
          outcome = await runJob(
            takeWorker(),
            job,
            { runTimeoutMs: deps.limits?.runTimeoutMs ?? exercise.limits.runTimeoutMs, intervalMs: deps.limits?.watchdogIntervalMs ?? 250 },
            deps.createChildWorker,
            onProgress,
          );
        } finally {
          prepareSpare();
        }
        const expectedTests = await deps.loadTestList?.(exercise.id);
        return mapReport({
          ...(expectedTests ? { expectedTests } : {}),
          exercise,
          lang: input.lang,
          ...outcome,
          typeErrors: [], // the editor's TypeScript worker shows them as the learner types
          files: exercise.files.map((f) => f.path),
          root: '/exercise',
          testTimeoutMs,
          durationMs: performance.now() - started,
        });
      }),
  };
}
