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
      const answer = await fetch(opts.cUrl, { headers: { [DEADLINE_HEADER]: String(left) }, signal: call.signal });
      relayJson(res, answer.status, await answer.text()); // C's status and body, whatever they are
    } catch {
      // Aborted (deadline, or A left: then nobody reads this) or C unreachable. No second attempt.
      if (call.signal.aborted) sendJson(res, 504, DEADLINE_EXCEEDED);
      else sendJson(res, 502, BAD_GATEWAY);
    } finally {
      clearTimeout(timer);
    }
  });
}
