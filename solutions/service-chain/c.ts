// Service C: the slow worker at the bottom of the chain. It does its job one step at a time and stops
// at the first of three moments: the work is done, its deadline passes, or its caller goes away.
import { createServer, type Server } from 'node:http';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  /** How long one job takes when nothing stops it. */
  workMs: number;
  /** Ceiling and default budget; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
  /** Does one TICK_MS step of the job. */
  step: () => Promise<void>;
}

export function createServiceC(opts: ServiceCOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const total = Math.ceil(opts.workMs / TICK_MS);

  return createServer(async (req, res) => {
    const budget = budgetFrom(req, ceiling);
    // Nothing left: no step could finish in time, so answer before starting any.
    if (budget <= 0) return sendJson(res, 504, DEADLINE_EXCEEDED);

    const stop = new AbortController();
    const deadline = setTimeout(() => stop.abort(new Error('deadline passed')), budget);
    // 'close' also fires after a normal answer; only an unfinished response means the caller left.
    res.once('close', () => {
      clearTimeout(deadline);
      if (!res.writableFinished) stop.abort(new Error('caller went away'));
    });

    // One step at a time, and none once the deadline has passed or the caller has gone.
    let steps = 0;
    while (steps < total && !stop.signal.aborted) {
      await opts.step();
      steps++;
    }
    clearTimeout(deadline);
    if (steps === total) sendJson(res, 200, { work: 'done', steps });
    else sendJson(res, 504, DEADLINE_EXCEEDED); // a no-op when the caller has gone
  });
}
