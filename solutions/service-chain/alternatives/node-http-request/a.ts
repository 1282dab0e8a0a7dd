// Alternative: node:http requests instead of fetch, a timer that destroys the request at the
// deadline, and the disconnect read from the socket's 'close'.
import { createServer, request, type Server } from 'node:http';
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

interface Answer {
  status: number;
  body: string;
}
type Failure = 'timeout' | 'network' | 'cancelled';

/** GET `url` with the budget header; resolves with the answer or the reason it failed. */
function get(url: string, left: number, onCancel: (cancel: () => void) => void): Promise<Answer | Failure> {
  return new Promise((resolve) => {
    let failure: Failure = 'network';
    const outgoing = request(url, { headers: { [DEADLINE_HEADER]: String(left) }, agent: false }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => {
        clearTimeout(timer);
        resolve({ status: incoming.statusCode ?? 502, body });
      });
      incoming.on('error', () => resolve(failure)); // destroyed after the headers came
      incoming.on('close', () => {
        if (!incoming.complete) resolve(failure);
      });
    });
    const timer = setTimeout(() => {
      failure = 'timeout';
      outgoing.destroy();
    }, left);
    onCancel(() => {
      failure = 'cancelled';
      clearTimeout(timer);
      outgoing.destroy();
    });
    outgoing.on('error', () => {
      clearTimeout(timer);
      resolve(failure);
    });
    outgoing.end();
  });
}

export function createServiceA(opts: ServiceAOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  return createServer(async (req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    let cancelCurrent: (() => void) | undefined;
    let userLeft = false;
    req.socket.once('close', () => {
      if (res.writableFinished) return;
      userLeft = true;
      cancelCurrent?.();
    });

    let outcome: Answer | Failure | undefined;
    let attempts = 0;
    while (attempts < 2 && !userLeft) {
      const left = Math.floor(deadlineAt - performance.now() - RESERVE_MS);
      if (left < MIN_ATTEMPT_MS) break;
      attempts++;
      outcome = await get(opts.bUrl, left, (cancel) => (cancelCurrent = cancel));
      cancelCurrent = undefined;
      const transient = outcome === 'network' || (typeof outcome === 'object' && (outcome.status === 502 || outcome.status === 503));
      if (!transient) break;
    }

    if (userLeft) return;
    if (outcome === undefined || outcome === 'timeout' || outcome === 'cancelled') sendJson(res, 504, DEADLINE_EXCEEDED);
    else if (outcome === 'network') sendJson(res, 502, BAD_GATEWAY);
    else relayJson(res, outcome.status, outcome.body);
  });
}
