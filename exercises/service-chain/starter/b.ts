// Service B: the middle hop. A calls B, B calls C.
// As shipped it has its own fixed timeout, longer than A's, and retries three times: every
// attempt of A fans out into up to four calls to C. Repair it by the rules in the brief (S1-S8).
import { createServer, type Server } from 'node:http';
import { BAD_GATEWAY, DEFAULT_BUDGET_MS, relayJson, sendJson } from './chain.ts';

export interface ServiceBOptions {
  /** Where C listens. */
  cUrl: string;
  /** Ceiling and default budget; default DEFAULT_BUDGET_MS. */
  budgetMs?: number;
}

// TODO: B's call must end with the budget it was given, not after a time of its own (S2).
const ATTEMPT_TIMEOUT_MS = 1000;
// TODO: B is not the retrying layer (S4).
const MAX_ATTEMPTS = 4;

export function createServiceB(opts: ServiceBOptions): Server {
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS; // TODO: unused: read A's x-deadline-ms
  void budgetMs;

  return createServer(async (_req, res) => {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      try {
        // TODO: pass on what is left (S1), fail fast when too little is left (S3),
        // and stop when A goes away (S6).
        const answer = await fetch(opts.cUrl, { signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
        if (answer.ok || attempt === MAX_ATTEMPTS) return relayJson(res, answer.status, await answer.text());
      } catch {
        // timed out or unreachable: try again
      }
    }
    sendJson(res, 502, BAD_GATEWAY);
  });
}
