// expect-fail: S4
// Bug: B keeps a budget-aware retry loop of its own, so a failure at C is retried by two layers.
// Service B: the middle hop. It adopts the budget its caller sent, keeps RESERVE_MS for itself,
// makes exactly one call to C with what is left, and never retries: the retrying layer is A.
import { createServer, type Server } from 'node:http';
import {
  BAD_GATEWAY,
  budgetFrom,
  DEADLINE_EXCEEDED,
  DEADLINE_HEADER,
  DEFAULT_BUDGET_MS,
  MIN_ATTEMPT_MS,
  relayJson,
  RESERVE_MS,
  sendJson,
} from './chain.ts';

export interface ServiceBOptions {
  /** Where C listens. */
  cUrl: string;
  /** Ceiling and default budget; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
}

export function createServiceB(opts: ServiceBOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;

  return createServer(async (req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    const left = Math.floor(deadlineAt - performance.now() - RESERVE_MS);
    // Too little left for C to do anything useful: say so now instead of loading C for nothing.
    if (left < MIN_ATTEMPT_MS) return sendJson(res, 504, DEADLINE_EXCEEDED);

    // One signal for the call, aborted by whichever comes first: B's deadline or A leaving.
    const call = new AbortController();
    const timer = setTimeout(() => call.abort(new Error('deadline passed')), left);
    res.once('close', () => {
      if (!res.writableFinished) call.abort(new Error('caller went away'));
    });

    try {
      // "B retries too, but only within the budget": still a second retrying layer.
      for (let attempt = 1; ; attempt++) {
        const now = Math.floor(deadlineAt - performance.now() - RESERVE_MS);
        const answer = await fetch(opts.cUrl, { headers: { [DEADLINE_HEADER]: String(now) }, signal: call.signal });
        const retryable = answer.status === 502 || answer.status === 503;
        if (!retryable || attempt === 3 || Math.floor(deadlineAt - performance.now() - RESERVE_MS) < MIN_ATTEMPT_MS) {
          return relayJson(res, answer.status, await answer.text());
        }
      }
    } catch {
      if (call.signal.aborted) sendJson(res, 504, DEADLINE_EXCEEDED);
      else sendJson(res, 502, BAD_GATEWAY);
    } finally {
      clearTimeout(timer);
    }
  });
}
