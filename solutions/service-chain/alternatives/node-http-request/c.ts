// Alternative: a chain of steps that checks the clock and a "still wanted" flag before each one.
import { createServer, type Server } from 'node:http';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  workMs: number;
  budgetMs?: number;
  step: () => Promise<void>;
}

export function createServiceC(opts: ServiceCOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const steps = Math.ceil(opts.workMs / TICK_MS);
  return createServer((req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    let wanted = true;
    req.socket.once('close', () => {
      if (!res.writableFinished) wanted = false;
    });

    let done = 0;
    const next = () => {
      if (!wanted) return;
      // A step that would end after the deadline is not started.
      if (performance.now() + TICK_MS > deadlineAt) return sendJson(res, 504, DEADLINE_EXCEEDED);
      opts.step().then(() => {
        done++;
        if (done === steps) sendJson(res, 200, { work: 'done', steps: done });
        else next();
      }, () => sendJson(res, 500, { error: 'step_failed' }));
    };
    next();
  });
}
