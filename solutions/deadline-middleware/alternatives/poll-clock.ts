// A correct alternative: the deadline is watched on the injected clock itself (an unref'd
// polling interval) instead of a one-shot timer; the header is read from rawHeaders so that a
// repeated header is spotted explicitly; res.writableEnded tells a disconnect from a reply.
import type { IncomingMessage, ServerResponse } from 'node:http';
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

export class DeadlineExceededError extends Error {}

export interface CallOptions {
  reserveMs?: number;
  minAttemptMs?: number;
  fetch?: typeof globalThis.fetch;
}

const POLL_MS = 5;

function headerValues(req: IncomingMessage, name: string): string[] {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]!.toLowerCase() === name) values.push(req.rawHeaders[i + 1]!);
  }
  return values;
}

function incomingBudget(req: IncomingMessage): number | undefined {
  const values = headerValues(req, DEADLINE_HEADER);
  if (values.length !== 1) return undefined;
  const match = /^(\d{1,15})$/.exec(values[0]!);
  return match ? parseInt(match[1]!, 10) : undefined;
}

function incomingRequestId(req: IncomingMessage): string | undefined {
  const values = headerValues(req, REQUEST_ID_HEADER);
  return values.length === 1 && /^[\w.:-]{1,128}$/.test(values[0]!) ? values[0] : undefined;
}

function watchDeadline(deadlineAt: number, now: () => number, controller: AbortController): () => void {
  const poll = setInterval(() => {
    if (now() >= deadlineAt) {
      clearInterval(poll);
      controller.abort(new DeadlineExceededError('deadline passed'));
    }
  }, POLL_MS);
  poll.unref();
  return () => clearInterval(poll);
}

export const deadlineMiddleware =
  ({ defaultBudgetMs = 10_000, now = () => performance.now() }: DeadlineOptions = {}) =>
  (req: IncomingMessage & { deadline?: DeadlineContext }, res: ServerResponse, next: (err?: unknown) => void): void => {
    const incoming = incomingBudget(req);
    const budget = Math.min(incoming ?? defaultBudgetMs, defaultBudgetMs);
    const requestId = incomingRequestId(req) ?? randomUUID();

    if (incoming === 0) {
      const body = JSON.stringify({ error: 'deadline_exceeded', requestId });
      res.writeHead(504, { 'Content-Type': 'application/json', [REQUEST_ID_HEADER]: requestId }).end(body);
      return;
    }
    res.setHeader(REQUEST_ID_HEADER, requestId);

    const start = now();
    const deadlineAt = start + budget;
    const controller = new AbortController();
    const stopWatching = watchDeadline(deadlineAt, now, controller);
    controller.signal.addEventListener('abort', stopWatching, { once: true });
    res.on('close', () => {
      stopWatching();
      if (!res.writableEnded) controller.abort(new Error('client disconnected'));
    });

    req.deadline = {
      requestId,
      deadlineAt,
      signal: controller.signal,
      remaining: () => Math.max(0, deadlineAt - now()),
    };
    next();
  };

export function callDownstream(
  ctx: DeadlineContext,
  url: string | URL,
  init: RequestInit = {},
  { reserveMs = 20, minAttemptMs = 50, fetch: doFetch }: CallOptions = {},
): Promise<Response> {
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (ctx.signal.aborted) return Promise.reject(new DeadlineExceededError('cancelled before the call'));
  if (left < minAttemptMs) return Promise.reject(new DeadlineExceededError(`${left} ms is too little`));

  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineExceededError(`no answer within ${left} ms`)), left);
  const follow = () => controller.abort(ctx.signal.reason);
  ctx.signal.addEventListener('abort', follow, { once: true });
  const cleanUp = () => {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', follow);
  };
  // Not async, so whatever throws from here on (a URL Request cannot parse, an injected fetch that
  // throws) would escape the call: it is caught and returned as a rejection, as fetch itself does.
  let response: Promise<Response>;
  try {
    const headers = new Headers(init.headers);
    headers.set(DEADLINE_HEADER, left.toString());
    headers.set(REQUEST_ID_HEADER, ctx.requestId);
    response = (doFetch ?? globalThis.fetch)(new Request(url, { ...init, headers, signal: controller.signal }));
  } catch (error) {
    cleanUp();
    return Promise.reject(error);
  }
  return response.finally(cleanUp);
}
