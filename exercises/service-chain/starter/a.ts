// Service A: the edge of the chain. The user calls A, A calls B.
// As shipped it is configured like the incident: a fixed timeout per attempt, two retries on any
// failure, and nothing passed on to B. Repair it by the rules in the brief (S1-S8).
import { createServer, type Server } from 'node:http';
import { BAD_GATEWAY, DEFAULT_BUDGET_MS, relayJson, sendJson } from './chain.ts';

export interface ServiceAOptions {
  /** Where B listens. */
  bUrl: string;
  /** The whole request's budget (the SLO): ceiling and default; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
}

// TODO: a fixed timeout knows nothing of the user's budget (S1, S2).
const ATTEMPT_TIMEOUT_MS = 500;
// TODO: A may be the one retrying layer, but only once, only on 502/503 or a dropped connection,
// and only while a whole attempt still fits in the budget (S4, S5).
const MAX_ATTEMPTS = 3;

export function createServiceA(opts: ServiceAOptions): Server {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS; // TODO: unused: read the user's x-deadline-ms
  void budgetMs;

  return createServer(async (_req, res) => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        // TODO: send x-deadline-ms (what is left, minus RESERVE_MS), stop when the user leaves (S6).
        const answer = await fetch(opts.bUrl, { signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
        if (answer.ok || attempt === MAX_ATTEMPTS) return relayJson(res, answer.status, await answer.text());
      } catch {
        // timed out or unreachable: try again
      }
    }
    sendJson(res, 502, BAD_GATEWAY);
  });
}
