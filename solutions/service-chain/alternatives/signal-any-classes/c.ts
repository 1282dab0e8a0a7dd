// Alternative: a setInterval that works while a combined signal (deadline or caller gone) is quiet.
import { createServer, type Server } from 'node:http';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  workMs: number;
  budgetMs?: number;
  onTick?: () => void;
}

export function createServiceC({ workMs, budgetMs = DEFAULT_BUDGET_MS, onTick }: ServiceCOptions): Server {
  const steps = Math.ceil(workMs / TICK_MS);
  return createServer((req, res) => {
    const budget = budgetFrom(req, budgetMs);
    if (budget === 0) return sendJson(res, 504, DEADLINE_EXCEEDED);

    const gone = new AbortController();
    req.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const timeout = AbortSignal.timeout(budget);
    const stop = AbortSignal.any([timeout, gone.signal]);

    let ticks = 0;
    const finish = () => {
      clearInterval(interval);
      stop.removeEventListener('abort', finish);
      if (ticks === steps) sendJson(res, 200, { work: 'done', ticks });
      else sendJson(res, 504, DEADLINE_EXCEEDED);
    };
    const interval = setInterval(() => {
      if (stop.aborted || timeout.aborted) return finish();
      ticks++;
      onTick?.();
      if (ticks === steps) finish();
    }, TICK_MS);
    stop.addEventListener('abort', finish);
  });
}
