// Alternative: AbortSignal.timeout + AbortSignal.any, the disconnect read from the request's 'close'.
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
  cUrl: string;
  budgetMs?: number;
}

export function createServiceB({ cUrl, budgetMs = DEFAULT_BUDGET_MS }: ServiceBOptions): Server {
  return createServer(async (req, res) => {
    // B calls C straight away, so what it can pass on is its whole budget minus the reserve.
    const left = Math.floor(budgetFrom(req, budgetMs) - RESERVE_MS);
    if (left < MIN_ATTEMPT_MS) {
      sendJson(res, 504, DEADLINE_EXCEEDED);
      return;
    }
    const gone = new AbortController();
    req.once('close', () => {
      if (!res.writableFinished) gone.abort();
    });
    const timeout = AbortSignal.timeout(left);
    try {
      const answer = await fetch(cUrl, { headers: { [DEADLINE_HEADER]: `${left}` }, signal: AbortSignal.any([timeout, gone.signal]) });
      relayJson(res, answer.status, await answer.text());
    } catch {
      // `timeout` is read here, so it stays reachable until the call has settled.
      sendJson(res, timeout.aborted || gone.signal.aborted ? 504 : 502, timeout.aborted || gone.signal.aborted ? DEADLINE_EXCEEDED : BAD_GATEWAY);
    }
  });
}
