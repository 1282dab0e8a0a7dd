// Starts the learner's services in a test's scope. harness.ts is imported first on purpose: it
// wraps fetch before the services' modules load.
import type http from 'node:http';
import type { Listening, Scope } from './harness.ts';
import { createServiceA } from '../src/a.ts';
import { createServiceB } from '../src/b.ts';
import { createServiceC } from '../src/c.ts';

function make<T>(what: string, factory: () => T): T {
  try {
    return factory();
  } catch (e) {
    throw new Error(`${what} threw: ${String(e)}`);
  }
}

/** C works in steps of this many milliseconds (TICK_MS in chain.ts). */
export const STEP_MS = 10;

/**
 * C's work as the tests see it. C does its job through the `step` the tests give it, so every step of
 * work is counted here, on the tests' side, whatever C itself reports or answers.
 */
export interface Work {
  /** steps C started */
  started: number;
  /** steps that had finished */
  done: number;
  /** the most steps running at the same moment (C runs them one after another: 1) */
  mostAtOnce: number;
  /** steps that had finished when C's last answer so far left C (undefined before any answer) */
  doneAtAnswer?: number;
}

export async function startC(h: Scope, workMs: number, budgetMs?: number): Promise<Listening & { work: Work }> {
  const work: Work = { started: 0, done: 0, mostAtOnce: 0 };
  let running = 0;
  // One step of the job: STEP_MS of the tests' time. Once the test has ended it never finishes, so a C
  // that does not stop is held where it is instead of working on into the next test.
  const step = (): Promise<void> => {
    work.started++;
    running++;
    work.mostAtOnce = Math.max(work.mostAtOnce, running);
    return new Promise<void>((resolve) =>
      h.later(STEP_MS, () => {
        running--;
        work.done++;
        resolve();
      }),
    );
  };
  const server = make('createServiceC', () => createServiceC(budgetMs === undefined ? { workMs, step } : { workMs, step, budgetMs }));
  const listening = await h.listen(server, 'createServiceC');
  // The moment an answer leaves C, the steps done so far are what it may claim.
  (server as http.Server).on('request', (_req: http.IncomingMessage, res: http.ServerResponse) => {
    res.once('finish', () => {
      work.doneAtAnswer = work.done;
    });
  });
  return { ...listening, work };
}

export async function startB(h: Scope, cUrl: string, budgetMs?: number): Promise<Listening> {
  const opts = budgetMs === undefined ? { cUrl } : { cUrl, budgetMs };
  return h.listen(
    make('createServiceB', () => createServiceB(opts)),
    'createServiceB',
  );
}

export async function startA(h: Scope, bUrl: string, budgetMs?: number): Promise<Listening> {
  const opts = budgetMs === undefined ? { bUrl } : { bUrl, budgetMs };
  return h.listen(
    make('createServiceA', () => createServiceA(opts)),
    'createServiceA',
  );
}

/** The real chain A -> B -> C, C taking workMs for a job; budgetMs for all three when given. */
export async function startChain(h: Scope, workMs: number, budgetMs?: number) {
  const c = await startC(h, workMs, budgetMs);
  const b = await startB(h, c.url, budgetMs);
  const a = await startA(h, b.url, budgetMs);
  return { a, b, c };
}

/**
 * Runs `fn` once, in the scope of whichever test asks first (its servers close when that test
 * ends); later tests, of the same rule or another, read the same result.
 */
export function once<T>(fn: (h: Scope) => Promise<T>): (h: Scope) => Promise<T> {
  let p: Promise<T> | undefined;
  return (h) => (p ??= fn(h));
}
