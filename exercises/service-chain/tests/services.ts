// Starts the learner's services in a test's scope. harness.ts is imported first on purpose: it
// wraps fetch before the services' modules load.
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

export interface Ticks {
  n: number;
}

export async function startC(h: Scope, workMs: number, budgetMs?: number): Promise<Listening & { ticks: Ticks }> {
  const ticks: Ticks = { n: 0 };
  const onTick = () => void ticks.n++;
  const server = make('createServiceC', () => createServiceC(budgetMs === undefined ? { workMs, onTick } : { workMs, onTick, budgetMs }));
  return { ...(await h.listen(server, 'createServiceC')), ticks };
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
