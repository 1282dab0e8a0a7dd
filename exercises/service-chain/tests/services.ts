// Starts the learner's services. harness.ts is imported first on purpose: it wraps fetch before
// the services' modules load.
import { listen, type Listening } from './harness.ts';
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

export async function startC(workMs: number, budgetMs?: number): Promise<Listening & { ticks: Ticks }> {
  const ticks: Ticks = { n: 0 };
  const onTick = () => void ticks.n++;
  const server = make('createServiceC', () => createServiceC(budgetMs === undefined ? { workMs, onTick } : { workMs, onTick, budgetMs }));
  return { ...(await listen(server, 'createServiceC')), ticks };
}

export async function startB(cUrl: string, budgetMs?: number): Promise<Listening> {
  const opts = budgetMs === undefined ? { cUrl } : { cUrl, budgetMs };
  return listen(make('createServiceB', () => createServiceB(opts)), 'createServiceB');
}

export async function startA(bUrl: string, budgetMs?: number): Promise<Listening> {
  const opts = budgetMs === undefined ? { bUrl } : { bUrl, budgetMs };
  return listen(make('createServiceA', () => createServiceA(opts)), 'createServiceA');
}

/** The real chain A -> B -> C, C taking workMs for a job; budgetMs for all three when given. */
export async function startChain(workMs: number, budgetMs?: number) {
  const c = await startC(workMs, budgetMs);
  const b = await startB(c.url, budgetMs);
  const a = await startA(b.url, budgetMs);
  return { a, b, c };
}

/** Runs `fn` once, whichever test asks first; later tests read the same result. */
export function once<T>(fn: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  return () => (p ??= fn());
}
