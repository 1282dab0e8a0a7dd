// expect-fail: S4, S5
// Bug: B retries every failure three times, each attempt with the full budget it had at the start.
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

    clearTimeout(timer);
    // The shared helper from years ago: three attempts, each with the budget read once at the start.
    for (let attempt = 1; attempt <= 3; attempt++) {
      try {
        const answer = await fetch(opts.cUrl, { headers: { [DEADLINE_HEADER]: String(left) }, signal: AbortSignal.timeout(left) });
        if (answer.ok || attempt === 3) return relayJson(res, answer.status, await answer.text());
      } catch {
        // try again
      }
    }
    sendJson(res, 504, DEADLINE_EXCEEDED);
  });
}
