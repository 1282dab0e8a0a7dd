// A correct alternative: the deadline timer is a timers/promises sleep that is cancelled when
// the response closes; the budget is parsed by comparing with its own canonical form;
// callDownstream builds a Request and uses an AbortSignal.timeout it keeps hold of.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';

export const DEADLINE_HEADER = 'x-deadline-ms';
export const REQUEST_ID_HEADER = 'x-request-id';

export interface DeadlineContext {
  requestId: string;
  deadlineAt: number;
  signal: AbortSignal;
  remaining(): number;
}

export interface DeadlineOptions {
  defaultBudgetMs?: number;
  now?: () => number;
}

export class DeadlineExceededError extends Error {
  constructor(message?: string) {
    super(message ?? 'deadline exceeded');
  }
}

export interface CallOptions {
  reserveMs?: number;
  minAttemptMs?: number;
  fetch?: typeof globalThis.fetch;
}

type Next = (err?: unknown) => void;
type Req = IncomingMessage & { deadline?: DeadlineContext };

const ID_CHARS = new Set('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:-');

function parseBudget(header: string | string[] | undefined): number | undefined {
  if (typeof header !== 'string' || header.length > 15) return undefined;
  // leading zeros are digits too: compare digit by digit rather than with String(n)
  if (![...header].every((c) => c >= '0' && c <= '9') || header === '') return undefined;
  return Number(header);
}

function requestIdOf(header: string | string[] | undefined): string {
  if (typeof header === 'string' && header.length >= 1 && header.length <= 128 && [...header].every((c) => ID_CHARS.has(c))) {
    return header;
  }
  return randomUUID();
}

export function deadlineMiddleware(opts: DeadlineOptions = {}): (req: Req, res: ServerResponse, next: Next) => void {
  const budgetCap = opts.defaultBudgetMs ?? 10_000;
  const now = opts.now ?? (() => performance.now());
  return (req, res, next) => {
    const requestId = requestIdOf(req.headers['x-request-id']);
    const incoming = parseBudget(req.headers['x-deadline-ms']);
    res.setHeader('x-request-id', requestId);
    if (incoming === 0) {
      res.statusCode = 504;
      res.setHeader('content-type', 'application/json');
      res.end(`{"error":"deadline_exceeded","requestId":${JSON.stringify(requestId)}}`);
      return;
    }
    const budget = incoming === undefined ? budgetCap : Math.min(budgetCap, incoming);
    const deadlineAt = now() + budget;

    const abort = new AbortController();
    const stopTimer = new AbortController();
    sleep(budget, undefined, { signal: stopTimer.signal }).then(
      () => abort.abort(new DeadlineExceededError()),
      () => {}, // cancelled: the response is over
    );
    res.on('close', () => {
      stopTimer.abort();
      if (!res.writableFinished) abort.abort(new Error('client gone'));
    });

    const ctx: DeadlineContext = {
      requestId,
      deadlineAt,
      signal: abort.signal,
      remaining() {
        return Math.max(deadlineAt - now(), 0);
      },
    };
    req.deadline = ctx;
    next();
  };
}

export async function callDownstream(
  ctx: DeadlineContext,
  url: string | URL,
  init?: RequestInit,
  opts: CallOptions = {},
): Promise<Response> {
  const left = Math.floor(ctx.remaining() - (opts.reserveMs ?? 20));
  if (left < (opts.minAttemptMs ?? 50) || ctx.signal.aborted) {
    throw new DeadlineExceededError(`not enough time for a call (${left} ms)`);
  }
  const timeout = AbortSignal.timeout(left);
  const signal = AbortSignal.any([timeout, ctx.signal]);
  const request = new Request(url, init);
  const headers = new Headers(request.headers);
  headers.set('x-deadline-ms', String(left));
  headers.set('x-request-id', ctx.requestId);
  const send = opts.fetch ?? globalThis.fetch;
  try {
    return await send(new Request(request, { headers, signal }));
  } finally {
    void timeout; // held until the response arrives (nodejs/node#57736)
  }
}
