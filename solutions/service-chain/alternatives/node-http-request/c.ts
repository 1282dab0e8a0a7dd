// Alternative: a chain of timers that checks the clock and a "still wanted" flag before each step.
import { createServer, type Server } from 'node:http';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  workMs: number;
  budgetMs?: number;
  onTick?: () => void;
}

export function createServiceC(opts: ServiceCOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const steps = Math.ceil(opts.workMs / TICK_MS);
  return createServer((req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    let wanted = true;
    let pending: ReturnType<typeof setTimeout> | undefined;
    req.socket.once('close', () => {
      if (res.writableFinished) return;
      wanted = false;
      clearTimeout(pending);
    });

    let ticks = 0;
    const step = () => {
      if (!wanted) return;
      // A step that would end after the deadline is not started.
      if (performance.now() + TICK_MS > deadlineAt) return sendJson(res, 504, DEADLINE_EXCEEDED);
      pending = setTimeout(() => {
        if (!wanted) return;
        ticks++;
        opts.onTick?.();
        if (ticks === steps) sendJson(res, 200, { work: 'done', ticks });
        else step();
      }, TICK_MS);
    };
    step();
  });
}
