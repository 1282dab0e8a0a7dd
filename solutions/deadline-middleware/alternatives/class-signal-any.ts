// A correct alternative: a class per request, AbortSignal.any + AbortSignal.timeout (unref'd
// by Node, so nothing to clear), hand-written parsing, socket 'close' to spot a disconnect and
// plain objects for headers.
import type { IncomingMessage, ServerResponse } from 'node:http';
import * as crypto from 'node:crypto';

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
  override name = 'DeadlineExceededError';
}

export interface CallOptions {
  reserveMs?: number;
  minAttemptMs?: number;
  fetch?: typeof globalThis.fetch;
}

function digitsOnly(raw: unknown, maxLength: number): number | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > maxLength) return null;
  let value = 0;
  for (let i = 0; i < raw.length; i++) {
    const code = raw.charCodeAt(i);
    if (code < 48 || code > 57) return null;
    value = value * 10 + (code - 48);
  }
  return value;
}

function isIdChar(c: string): boolean {
  return (
    (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '.' || c === '_' || c === ':' || c === '-'
  );
}

function validRequestId(raw: unknown): raw is string {
  if (typeof raw !== 'string' || raw.length < 1 || raw.length > 128) return false;
  for (const c of raw) if (!isIdChar(c)) return false;
  return true;
}

class RequestDeadline implements DeadlineContext {
  readonly signal: AbortSignal;
  private readonly gone = new AbortController();

  constructor(
    readonly requestId: string,
    readonly deadlineAt: number,
    budgetMs: number,
    private readonly clock: () => number,
  ) {
    this.signal = AbortSignal.any([this.gone.signal, AbortSignal.timeout(Math.min(budgetMs, 2_147_483_647))]);
  }

  remaining(): number {
    const left = this.deadlineAt - this.clock();
    return left > 0 ? left : 0;
  }

  clientLeft(): void {
    this.gone.abort(new Error('client closed the connection'));
  }
}

export function deadlineMiddleware(opts?: DeadlineOptions) {
  const ceiling = opts?.defaultBudgetMs ?? 10_000;
  const clock = opts?.now ?? performance.now.bind(performance);

  return function deadline(
    req: IncomingMessage & { deadline?: DeadlineContext },
    res: ServerResponse,
    next: (err?: unknown) => void,
  ): void {
    const asked = digitsOnly(req.headers[DEADLINE_HEADER], 15);
    const budget = asked === null ? ceiling : asked < ceiling ? asked : ceiling;
    const incomingId = req.headers[REQUEST_ID_HEADER];
    const requestId = validRequestId(incomingId) ? incomingId : crypto.randomUUID();

    if (asked === 0) {
      res.statusCode = 504;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('X-Request-Id', requestId);
      res.end(JSON.stringify({ error: 'deadline_exceeded', requestId }));
      return;
    }

    res.setHeader('X-Request-Id', requestId);
    const ctx = new RequestDeadline(requestId, clock() + budget, budget, clock);
    const socket = req.socket;
    const onSocketClose = () => {
      if (!res.writableFinished) ctx.clientLeft();
    };
    socket.once('close', onSocketClose);
    // keep-alive sockets outlive the request: stop listening once this response is done
    res.once('finish', () => socket.removeListener('close', onSocketClose));
    req.deadline = ctx;
    next();
  };
}

function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (Array.isArray(init)) {
    for (const [name, value] of init) out[name.toLowerCase()] = value;
  } else if (init instanceof Headers) {
    init.forEach((value, name) => (out[name] = value));
  } else {
    for (const name of Object.keys(init)) out[name.toLowerCase()] = (init as Record<string, string>)[name]!;
  }
  return out;
}

export async function callDownstream(
  ctx: DeadlineContext,
  url: string | URL,
  init?: RequestInit,
  opts?: CallOptions,
): Promise<Response> {
  const reserve = opts?.reserveMs ?? 20;
  const minimum = opts?.minAttemptMs ?? 50;
  const left = Math.floor(ctx.remaining() - reserve);
  if (ctx.signal.aborted || left < minimum) {
    throw new DeadlineExceededError(ctx.signal.aborted ? 'request already cancelled' : `${left} ms left`);
  }
  const headers = plainHeaders(init?.headers);
  headers[DEADLINE_HEADER] = `${left}`;
  headers[REQUEST_ID_HEADER] = ctx.requestId;
  const doFetch = opts?.fetch ?? fetch;
  return doFetch(url, {
    ...init,
    headers,
    signal: AbortSignal.any([ctx.signal, AbortSignal.timeout(left)]),
  });
}
