// expect-fail: S4, S5
// Bug: A retries once after any failure, a timeout included, with the budget it had at the start.
// Service A: the edge. It turns the user's budget into a deadline, passes what is left to B, and is
// the one layer that retries: once, on a transient failure, and only if a whole attempt still fits.
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

export interface ServiceAOptions {
  /** Where B listens. */
  bUrl: string;
  /** The whole request's budget (the SLO): ceiling and default; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
}

/** What one attempt to B ended with. */
type Outcome =
  | { kind: 'answer'; status: number; body: string }
  | { kind: 'unreachable' } // connection refused or dropped: worth one more try
  | { kind: 'aborted' }; // A's deadline passed, or the user left

const MAX_ATTEMPTS = 2;
const isTransient = (o: Outcome) => o.kind === 'unreachable' || (o.kind === 'answer' && (o.status === 502 || o.status === 503));

/** One call to B that ends at `left` ms or when the user leaves, whichever comes first. */
async function callB(url: string, left: number, userGone: AbortSignal): Promise<Outcome> {
  const call = new AbortController();
  const timer = setTimeout(() => call.abort(new Error('deadline passed')), left);
  const onGone = () => call.abort(new Error('caller went away'));
  userGone.addEventListener('abort', onGone, { once: true });
  try {
    const answer = await fetch(url, { headers: { [DEADLINE_HEADER]: String(left) }, signal: call.signal });
    return { kind: 'answer', status: answer.status, body: await answer.text() };
  } catch {
    return call.signal.aborted ? { kind: 'aborted' } : { kind: 'unreachable' };
  } finally {
    clearTimeout(timer);
    userGone.removeEventListener('abort', onGone);
  }
}

export function createServiceA(opts: ServiceAOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;

  return createServer(async (req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    const userGone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) userGone.abort();
    });

    let last: Outcome | undefined;
    const left = Math.floor(deadlineAt - performance.now() - RESERVE_MS);
    if (left >= MIN_ATTEMPT_MS) {
      // One retry on any failure, with the budget worked out once at the start.
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        last = await callB(opts.bUrl, left, userGone.signal);
        if (userGone.signal.aborted || (last.kind === 'answer' && last.status < 500)) break;
      }
    }

    if (userGone.signal.aborted) return; // nobody to answer
    if (last === undefined || last.kind === 'aborted') sendJson(res, 504, DEADLINE_EXCEEDED);
    else if (last.kind === 'unreachable') sendJson(res, 502, BAD_GATEWAY);
    else relayJson(res, last.status, last.body); // B's answer, success or the last failure
  });
}
