// Service C: the slow worker at the bottom. B calls C; C does its job one TICK_MS step at a time.
// As shipped it always finishes its job, even when its deadline has passed and nobody is waiting
// for the answer any more. Repair it by the rules in the brief (S1-S8).
import { createServer, type Server } from 'node:http';
import { DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  /** How long one job takes when nothing stops it. */
  workMs: number;
  /** Ceiling and default budget; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
  /** Does one TICK_MS step of the job. */
  step: () => Promise<void>;
}

export function createServiceC(opts: ServiceCOptions): Server {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS; // TODO: unused: read B's x-deadline-ms
  void budgetMs;
  const total = Math.ceil(opts.workMs / TICK_MS);

  return createServer(async (_req, res) => {
    let steps = 0;
    // TODO: stop at the deadline (S7) and as soon as B goes away (S6); a budget of 0 means no work (S3).
    while (steps < total) {
      await opts.step();
      steps++;
    }
    sendJson(res, 200, { work: 'done', steps });
  });
}
