// expect-fail: S6
// Bug: C stops at its deadline but never notices that its caller left.
// Service C: the slow worker at the bottom of the chain. It works in TICK_MS steps and stops at the
// first of three moments: the work is done, its deadline passes, or its caller goes away.
import { createServer, type Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  /** How long one job takes when nothing stops it. */
  workMs: number;
  /** Ceiling and default budget; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
  /** Called once per finished step of work. */
  onTick?: () => void;
}

export function createServiceC(opts: ServiceCOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const steps = Math.ceil(opts.workMs / TICK_MS);

  return createServer(async (req, res) => {
    const budget = budgetFrom(req, ceiling);
    // Nothing left: no step could finish in time, so answer before starting any.
    if (budget <= 0) return sendJson(res, 504, DEADLINE_EXCEEDED);

    const stop = new AbortController();
    const deadline = setTimeout(() => stop.abort(new Error('deadline passed')), budget);
    // 'close' also fires after a normal answer; only an unfinished response means the caller left.

    let ticks = 0;
    try {
      while (ticks < steps) {
        await sleep(TICK_MS, undefined, { signal: stop.signal });
        ticks++;
        opts.onTick?.();
      }
    } catch {
      // aborted: fall through with the steps done so far
    }
    clearTimeout(deadline);
    if (ticks === steps) sendJson(res, 200, { work: 'done', ticks });
    else sendJson(res, 504, DEADLINE_EXCEEDED); // a no-op when the caller has gone
  });
}
