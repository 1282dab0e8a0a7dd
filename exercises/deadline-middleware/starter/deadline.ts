// Deadline middleware: read the caller's remaining budget, give each request a deadline and a
// signal, and call downstream services inside that deadline. The brief lists the rules D1-D12.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const DEADLINE_HEADER = 'x-deadline-ms'; // remaining budget, whole ms, decimal
export const REQUEST_ID_HEADER = 'x-request-id';

export interface DeadlineContext {
  requestId: string;
  deadlineAt: number; // absolute time on the now() clock
  signal: AbortSignal; // aborts at the deadline, or when the client goes away
  remaining(): number; // ms left, never below 0
}

export interface DeadlineOptions {
  defaultBudgetMs?: number; // default 10_000; also the ceiling for any incoming budget
  now?: () => number; // default performance.now
}

export class DeadlineExceededError extends Error {}

/** Connect/Express-style middleware; sets req.deadline and calls next(). */
export function deadlineMiddleware(
  opts: DeadlineOptions = {},
): (req: IncomingMessage & { deadline?: DeadlineContext }, res: ServerResponse, next: (err?: unknown) => void) => void {
  const defaultBudgetMs = opts.defaultBudgetMs ?? 10_000;
  const now = opts.now ?? (() => performance.now());

  return (req, res, next) => {
    // TODO D1-D2: read x-deadline-ms and work out the budget and deadlineAt (with now()).
    // TODO D3-D4: pick the request id; answer a budget of 0 with a JSON 504.
    // TODO D6-D8: a signal that aborts at the deadline or when the client goes away,
    //             without a timer that outlives the response.
    // TODO D5, D9: set req.deadline (with remaining()) and call next() once.
    void defaultBudgetMs;
    void now;
    throw new Error('TODO: deadlineMiddleware is not written yet');
  };
}

export interface CallOptions {
  reserveMs?: number; // kept back for local work and the reply; default 20
  minAttemptMs?: number; // below this, do not start the call; default 50
  fetch?: typeof globalThis.fetch;
}

/** Calls a downstream service inside the caller's deadline. No retries. */
export async function callDownstream(ctx: DeadlineContext, url: string | URL, init?: RequestInit, opts: CallOptions = {}): Promise<Response> {
  const { reserveMs = 20, minAttemptMs = 50, fetch = globalThis.fetch } = opts;
  // TODO D10: left = Math.floor(ctx.remaining() - reserveMs); too little left, or an aborted
  //           ctx.signal: reject with DeadlineExceededError without calling fetch.
  // TODO D11-D12: one fetch with a signal and the two headers; resolve with its Response.
  void ctx;
  void url;
  void init;
  void reserveMs;
  void minAttemptMs;
  void fetch;
  throw new Error('TODO: callDownstream is not written yet');
}
