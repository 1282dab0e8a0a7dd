// Alternative: one node:http request to C, destroyed at the deadline or when A's socket closes.
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

export interface ServiceBOptions {
  cUrl: string;
  budgetMs?: number;
}

export function createServiceB(opts: ServiceBOptions): Server {
  const ceiling = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  return createServer((req, res) => {
    const deadlineAt = performance.now() + budgetFrom(req, ceiling);
    const left = Math.floor(deadlineAt - performance.now() - RESERVE_MS);
    if (left < MIN_ATTEMPT_MS) return sendJson(res, 504, DEADLINE_EXCEEDED);

    let timedOut = false;
    const outgoing = request(opts.cUrl, { headers: { [DEADLINE_HEADER]: String(left) }, agent: false }, (incoming) => {
      let body = '';
      incoming.setEncoding('utf8');
      incoming.on('data', (chunk: string) => (body += chunk));
      incoming.on('end', () => {
        clearTimeout(timer);
        relayJson(res, incoming.statusCode ?? 502, body);
      });
      incoming.on('error', () => sendJson(res, timedOut ? 504 : 502, timedOut ? DEADLINE_EXCEEDED : BAD_GATEWAY));
    });
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy();
    }, left);
    outgoing.on('error', () => {
      clearTimeout(timer);
      sendJson(res, timedOut ? 504 : 502, timedOut ? DEADLINE_EXCEEDED : BAD_GATEWAY);
    });
    req.socket.once('close', () => {
      if (res.writableFinished) return;
      clearTimeout(timer);
      outgoing.destroy(); // A is gone: so is our reason to keep C busy
    });
    outgoing.end();
  });
}
