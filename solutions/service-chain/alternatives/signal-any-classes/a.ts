// Alternative: AbortSignal.timeout + AbortSignal.any, the disconnect read from the request's
// 'close', a small Deadline class, and the single retry written as a recursive attempt.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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

export interface ServiceAOptions {
  bUrl: string;
  budgetMs?: number;
}

class Deadline {
  private readonly at: number;
  constructor(budgetMs: number) {
    this.at = performance.now() + budgetMs;
  }
  /** What can be handed to the next hop: the rest of the budget minus our reserve, in whole ms. */
  forNextHop(): number {
    return Math.floor(this.at - performance.now() - RESERVE_MS);
  }
}

/** Aborts when the caller leaves before the answer is finished. A GET whose body is never read
 *  emits 'close' only when the connection ends or the answer is done, so this is safe here. */
function callerGone(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const gone = new AbortController();
  req.once('close', () => {
    if (!res.writableFinished) gone.abort(new Error('caller went away'));
  });
  return gone.signal;
}

type Result = { status: number; body: string } | 'unreachable' | 'deadline';

export function createServiceA({ bUrl, budgetMs = DEFAULT_BUDGET_MS }: ServiceAOptions): Server {
  return createServer(async (req, res) => {
    const deadline = new Deadline(budgetFrom(req, budgetMs));
    const gone = callerGone(req, res);

    const attempt = async (retriesLeft: number, previous: Result): Promise<Result> => {
      const left = deadline.forNextHop();
      if (left < MIN_ATTEMPT_MS || gone.aborted) return previous;
      // Both sources stay referenced by this frame until the call settles (nodejs/node#57736).
      const timeout = AbortSignal.timeout(left);
      let result: Result;
      try {
        const answer = await fetch(bUrl, { headers: { [DEADLINE_HEADER]: `${left}` }, signal: AbortSignal.any([timeout, gone]) });
        result = { status: answer.status, body: await answer.text() };
      } catch {
        result = timeout.aborted || gone.aborted ? 'deadline' : 'unreachable';
      }
      const transient = result === 'unreachable' || (typeof result === 'object' && [502, 503].includes(result.status));
      return transient && retriesLeft > 0 ? attempt(retriesLeft - 1, result) : result;
    };

    const result = await attempt(1, 'deadline');
    if (gone.aborted) return;
    if (result === 'deadline') sendJson(res, 504, DEADLINE_EXCEEDED);
    else if (result === 'unreachable') sendJson(res, 502, BAD_GATEWAY);
    else relayJson(res, result.status, result.body);
  });
}
