/**
 * The page's side of the worker runner: a fresh grading worker per run, the same watchdog and hard
 * limit as the Node grader (a test stuck past its timeout, or the whole run past the exercise's
 * limit, terminates the worker), and the same report mapping. Needs no server, no cross-origin
 * isolation and no network once the suite is cached.
 */
import type { Exercise } from '../../grading/core/exercise-schema.ts';
import type { ProgressEvent } from '../../grading/core/events.ts';
import { GradeInputError, validateLearnerFiles } from '../../grading/core/files.ts';
import { mapReport } from '../../grading/core/map-report.ts';
import { t } from '../../grading/core/messages.ts';
import type { Report, RunResult } from '../../grading/core/types.ts';
import { startWatchdog } from '../../grading/core/watchdog.ts';
import { serialQueue } from '../run-queue.ts';
import { RunnerInputError, type GradeInput, type Runner, type RunProgress } from '../runner-types.ts';
import type { GradeJob, WorkerMessage } from './protocol.ts';

/** What the runner needs of a Worker (a fake in unit tests). */
export interface GradingWorker {
  onmessage: ((e: { data: WorkerMessage }) => void) | null;
  onerror: ((e: { message?: string }) => void) | null;
  postMessage(job: GradeJob): void;
  terminate(): void;
}

export interface WorkerRunnerDeps {
  createWorker(): GradingWorker;
  /** The exercise definition (rules and messages), or undefined for an unknown id. */
  loadExercise(id: string): Promise<Exercise | undefined>;
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
function runJob(deps: WorkerRunnerDeps, job: GradeJob, runTimeoutMs: number, intervalMs: number, onProgress?: (p: RunProgress) => void): Promise<Outcome> {
  const started = performance.now();
  const events: string[] = [];
  const counted = { done: 0, total: 0 };
  const progress: ProgressEvent[] = [];
  const worker = deps.createWorker();
  return new Promise<Outcome>((resolve, reject) => {
    let settled = false;
    const stop = () => {
      settled = true;
      watchdog.stop();
      clearTimeout(hardLimit);
      worker.terminate();
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
    const watchdog = startWatchdog({ read: () => progress, kill: () => finish(null, false), testTimeoutMs: job.testTimeoutMs, intervalMs });
    const hardLimit = setTimeout(() => finish(null, true), runTimeoutMs);
    worker.onmessage = ({ data }) => {
      if (settled) return;
      if (data.type === 'event') {
        events.push(JSON.stringify(data.event));
        if (data.event.type === 'collected') counted.total += data.event.tests.length;
        else if (data.event.type === 'result') counted.done++;
        else return;
        onProgress?.({ ...counted });
      } else if (data.type === 'progress') progress.push(data.event);
      else if (data.type === 'done') finish(0, false);
      else fail(data.message);
    };
    worker.onerror = (e) => fail(e.message || 'the grading worker could not start');
    worker.postMessage(job);
  });
}

export function createWorkerRunner(deps: WorkerRunnerDeps): Runner {
  const queue = serialQueue();
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
        const outcome = await runJob(deps, job, deps.limits?.runTimeoutMs ?? exercise.limits.runTimeoutMs, deps.limits?.watchdogIntervalMs ?? 250, onProgress);
        return mapReport({
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
