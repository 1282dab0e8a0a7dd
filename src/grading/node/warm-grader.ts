/**
 * The grader the local runner uses: one sandbox per exercise kept between runs, with vitest and the
 * type checker left running, so a learner's second run does not pay for start-up again.
 */
import { awaitedLater } from './awaited-later.ts';
import { fsExerciseSource } from './fs-source.ts';
import { gradeWith, type GradeOptions, type GradeRequest } from '../core/index.ts';
import { NodeSandbox } from './node-sandbox.ts';
import type { Report, Sandbox } from '../core/index.ts';
import { warmTypeChecker } from './warm-typecheck.ts';

export interface WarmGraderOptions {
  /** A sandbox left unused this long is freed (its vitest stopped, its folder removed). */
  idleMs?: number;
  source?: GradeOptions['source'];
  /** Where an exercise's runs happen; default plain child processes (NodeSandbox). */
  createSandbox?: () => Promise<Sandbox & { readonly root: string }>;
}

/**
 * Grades like gradeExercise, but keeps one sandbox per exercise between calls, with vitest and
 * the type checker left running: what the local runner uses, so a learner's second run is fast.
 * (The confined sandbox keeps vitest warm too, inside its confinement and limits.)
 * Calls for the same exercise are served one after another.
 */
export function createWarmGrader(opts: WarmGraderOptions = {}) {
  const idleMs = opts.idleMs ?? 10 * 60_000;
  const source = opts.source ?? fsExerciseSource();
  const typecheck = warmTypeChecker();
  const createSandbox = opts.createSandbox ?? (() => NodeSandbox.create());
  const kept = new Map<string, { sandbox: Promise<Sandbox & { readonly root: string }>; tail: Promise<unknown>; idle?: ReturnType<typeof setTimeout> }>();

  const free = async (id: string) => {
    const entry = kept.get(id);
    kept.delete(id);
    if (!entry) return;
    clearTimeout(entry.idle);
    // One that never started has nothing to free (its grade has reported why).
    const sandbox = await entry.sandbox.catch(() => undefined);
    if (!sandbox) return;
    typecheck.forget(sandbox.root);
    await sandbox.dispose?.();
  };

  return {
    grade(request: GradeRequest): Promise<Report> {
      let entry = kept.get(request.exerciseId);
      if (!entry) kept.set(request.exerciseId, (entry = { sandbox: awaitedLater(createSandbox()), tail: Promise.resolve() }));
      const current = entry;
      clearTimeout(current.idle);
      const graded = current.tail.then(async () => gradeWith(request, await current.sandbox, { source, typecheck, warm: true }));
      current.tail = graded
        .catch(() => undefined)
        .finally(() => {
          clearTimeout(current.idle); // a grade queued behind this one may have set it already
          current.idle = setTimeout(() => void free(request.exerciseId), idleMs);
          current.idle.unref();
        });
      return graded;
    },
    /** Frees every kept sandbox. */
    async close(): Promise<void> {
      await Promise.all([...kept.keys()].map(free));
    },
  };
}
