// Alternative: one combined signal (deadline or caller gone) that C checks before each step and races
// the step in flight against, so the 504 leaves at the deadline itself. The step it stops waiting for
// still ends on its own within TICK_MS; no new one is started.
import { createServer, type Server } from 'node:http';
import { budgetFrom, DEADLINE_EXCEEDED, DEFAULT_BUDGET_MS, sendJson, TICK_MS } from './chain.ts';

export interface ServiceCOptions {
  workMs: number;
  budgetMs?: number;
  step: () => Promise<void>;
}

class Stopped extends Error {}

/** Rejects with Stopped once `signal` aborts. */
function stopped(signal: AbortSignal): { promise: Promise<never>; release(): void } {
  let onAbort = () => {};
  const promise = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Stopped());
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  promise.catch(() => {}); // only read through the race below
  return { promise, release: () => signal.removeEventListener('abort', onAbort) };
}

export function createServiceC({ workMs, budgetMs = DEFAULT_BUDGET_MS, step }: ServiceCOptions): Server {
  const steps = Math.ceil(workMs / TICK_MS);
  return createServer(async (req, res) => {
    const budget = budgetFrom(req, budgetMs);
    if (budget === 0) return sendJson(res, 504, DEADLINE_EXCEEDED);

    const gone = new AbortController();
    req.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const timeout = AbortSignal.timeout(budget);
    const stop = AbortSignal.any([timeout, gone.signal]);
    const abort = stopped(stop);

    let done = 0;
    try {
      for (; done < steps; done++) {
        stop.throwIfAborted();
        await Promise.race([step(), abort.promise]);
      }
      sendJson(res, 200, { work: 'done', steps: done });
    } catch {
      sendJson(res, 504, DEADLINE_EXCEEDED); // a no-op when the caller has gone
    } finally {
      abort.release();
      void timeout; // held until the work ends: Node 20 can collect a source of AbortSignal.any (nodejs/node#57736)
    }
  });
}
