/**
 * `npm run sim -- <sim> --policy <folder>`: a learner's exercise folder as one more policy of a
 * simulation. Which exercise a folder holds is told by its files (each exercise's editable files in
 * exercises/<id>/exercise.json: backoff.ts is backoff, budget.ts is retry-budget…). The simulation
 * then runs in a worker thread (sim-worker.ts) that imports the learner's .ts files (tsx compiles
 * them there too) with Math.random seeded from the seed; the worker is stopped after a time limit,
 * so an endless loop in the learner's code ends the command with a message instead of hanging it.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Lang } from '../src/i18n/langs.ts';
import { learnerUnusable, type AnySim, type ParamValues, type SimResult } from '../src/sims/index.ts';
import { msg } from './cli-messages.ts';

const EXERCISES_DIR = fileURLToPath(new URL('../exercises/', import.meta.url));

/** How long the learner's code gets to load and run, unless SIM_TIME_LIMIT_MS says otherwise. */
export const DEFAULT_TIME_LIMIT_MS = 20_000;
/** The worker's heap: a learner's code that hoards memory is stopped, not the machine. */
export const WORKER_HEAP_MB = 1024;

/** An exercise and the files a learner edits in it. */
export interface ExerciseFiles {
  id: string;
  editable: string[];
}

/** Every exercise's editable files, from exercises/<id>/exercise.json. */
export function exerciseFiles(dir = EXERCISES_DIR): ExerciseFiles[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('_') && existsSync(join(dir, e.name, 'exercise.json')))
    .map((e) => {
      const json = JSON.parse(readFileSync(join(dir, e.name, 'exercise.json'), 'utf8')) as { files: { path: string; editable: boolean }[] };
      return { id: e.name, editable: json.files.filter((f) => f.editable).map((f) => f.path) };
    })
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** One `--policy` folder, resolved: the exercise it holds and the files to import. */
export interface PolicyFolder {
  /** As the user wrote it (shown in messages and in --json). */
  folder: string;
  exercise: string;
  /** Absolute paths of the exercise's editable files in the folder. */
  files: string[];
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

/** "backoff (backoff.ts), retry-budget (budget.ts)": the exercises a simulation runs and their files. */
export function runnableExercises(sim: AnySim, exercises: readonly ExerciseFiles[]): string {
  return (sim.learnerExercises ?? []).map((id) => `${id} (${exercises.find((e) => e.id === id)?.editable.join(', ') ?? '?'})`).join(', ');
}

/**
 * The folder's exercise, or the message that says why it cannot be used (a usage error: exit 2).
 * A folder matches an exercise when it holds all that exercise's editable files.
 */
export function resolvePolicyFolder(
  sim: AnySim,
  folder: string,
  lang: Lang,
  exercises: readonly ExerciseFiles[] = exerciseFiles(),
): { ok: true; policy: PolicyFolder } | { ok: false; message: string } {
  const dir = resolve(folder);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { ok: false, message: msg(lang, 'sim.policyMissing', { folder }) };
  const matches = exercises.filter((e) => e.editable.every((f) => isFile(join(dir, f))));
  if (matches.length === 0) {
    const can = runnableExercises(sim, exercises);
    return { ok: false, message: msg(lang, 'sim.policyNoExercise', { folder, sim: sim.name, can: can || '—' }) };
  }
  const usable = matches.filter((e) => sim.learnerExercises?.includes(e.id));
  if (usable.length === 0) return { ok: false, message: `${folder}: ${learnerUnusable(sim, matches[0]!.id)[lang]}` };
  if (usable.length > 1) return { ok: false, message: msg(lang, 'sim.policyAmbiguous', { folder, exercises: usable.map((e) => e.id).join(', ') }) };
  const exercise = usable[0]!;
  return { ok: true, policy: { folder, exercise: exercise.id, files: exercise.editable.map((f) => join(dir, f)) } };
}

/** What the worker is asked to run. */
export interface SimJob {
  sim: string;
  params: ParamValues;
  seed: number;
  policies: { exercise: string; files: string[] }[];
}

/** What the worker answers: the result, or the file of the learner's code that did not load. */
export type SimReply = { kind: 'ok'; result: SimResult } | { kind: 'load'; file: string; error: string };

/** How a run in the worker ended. */
export type WorkerOutcome = SimReply | { kind: 'timeout' } | { kind: 'memory' } | { kind: 'crash'; error: string };

/**
 * Runs the simulation with the learner's code in a worker thread, stopped after `limitMs`. What the
 * learner's code prints goes to stderr, so --json's stdout stays one JSON object; the worker exits
 * once it has answered, and its output is all delivered by then.
 */
export function runInWorker(job: SimJob, limitMs: number): Promise<WorkerOutcome> {
  return new Promise((done) => {
    const worker = new Worker(new URL('./sim-worker.ts', import.meta.url), {
      workerData: job,
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    worker.stdout.pipe(process.stderr, { end: false });
    worker.stderr.pipe(process.stderr, { end: false });
    let reply: SimReply | undefined;
    let settled = false;
    const settle = (outcome: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      done(outcome);
    };
    // Past the limit, an answer already given still counts (the code may have left a timer running).
    const timer = setTimeout(() => settle(reply ?? { kind: 'timeout' }), limitMs);
    worker.on('message', (answer: SimReply) => {
      reply = answer;
    });
    worker.on('error', (err: Error & { code?: string }) =>
      settle(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? { kind: 'memory' } : { kind: 'crash', error: err.stack ?? String(err) }),
    );
    worker.on('exit', (code) => settle(reply ?? { kind: 'crash', error: `exit code ${code}` }));
  });
}

/** The time limit from SIM_TIME_LIMIT_MS (a whole number of milliseconds), else the default; undefined when it is not a number. */
export function timeLimitMs(env: NodeJS.ProcessEnv = process.env): number | undefined {
  const raw = env['SIM_TIME_LIMIT_MS'];
  if (raw === undefined || raw === '') return DEFAULT_TIME_LIMIT_MS;
  return /^\d+$/.test(raw) && Number(raw) > 0 ? Number(raw) : undefined;
}
