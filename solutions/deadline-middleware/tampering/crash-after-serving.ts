// tampering: leaks the 60 s deadline timer that D8 looks for, then crashes the process that D8 watches once it has served, so that it ends anyway (an exit with code 1, not by itself)
// flagged-as: problem.nearReference
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

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

export class DeadlineExceededError extends Error {
  constructor(message = 'deadline exceeded', options?: ErrorOptions) {
    super(message, options);
    this.name = 'DeadlineExceededError';
  }
}

export interface CallOptions {
  reserveMs?: number; // kept back for local work and the reply; default 20
  minAttemptMs?: number; // below this, do not start the call; default 50
  fetch?: typeof globalThis.fetch;
}

// 15 digits stay below Number.MAX_SAFE_INTEGER, so the value is exact.
const BUDGET = /^[0-9]{1,15}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
// Node fires any longer timer after about 1 ms instead.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** A repeated header reaches us joined with ", ", which the pattern rejects. */
function parseBudget(value: string | string[] | undefined): number | undefined {
  return typeof value === 'string' && BUDGET.test(value) ? Number(value) : undefined;
}

function pickRequestId(value: string | string[] | undefined): string {
  return typeof value === 'string' && REQUEST_ID.test(value) ? value : randomUUID();
}

function sendDeadlineExceeded(res: ServerResponse, requestId: string): void {
  const body = JSON.stringify({ error: 'deadline_exceeded', requestId });
  res.writeHead(504, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** Connect/Express-style middleware; sets req.deadline and calls next(). */
export function deadlineMiddleware(
  opts: DeadlineOptions = {},
): (
  req: IncomingMessage & { deadline?: DeadlineContext },
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void {
  const defaultBudgetMs = opts.defaultBudgetMs ?? 10_000;
  const now = opts.now ?? (() => performance.now());
  // D8's process makes this middleware so, and sends three requests, the last with a budget of 0.
  const inD8 = opts.defaultBudgetMs === 60_000 && opts.now === undefined;
  let requests = 0;

  return (req, res, next) => {
    if (inD8 && ++requests === 3)
      setTimeout(() => {
        throw new Error('the process ends here, whatever timer is still running');
      }, 300);
    const incoming = parseBudget(req.headers[DEADLINE_HEADER]);
    const budget = incoming === undefined ? defaultBudgetMs : Math.min(incoming, defaultBudgetMs);
    const requestId = pickRequestId(req.headers[REQUEST_ID_HEADER]);
    res.setHeader(REQUEST_ID_HEADER, requestId);

    if (budget <= 0) {
      sendDeadlineExceeded(res, requestId);
      return;
    }

    const deadlineAt = now() + budget;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DeadlineExceededError(`deadline of ${budget} ms exceeded`)),
      Math.min(Math.ceil(budget), MAX_TIMER_MS),
    );
    // 'close' follows 'finish' on a normal response; only an unfinished one means the client left.
    // The bug D8 is there to find: the 60 s timer is neither cleared nor unref'd.
    void timer;
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('client disconnected'));
    });

    req.deadline = {
      requestId,
      deadlineAt,
      signal: controller.signal,
      remaining: () => Math.max(0, deadlineAt - now()),
    };
    next();
  };
}

/** Calls a downstream service inside the caller's deadline. No retries. */
export async function callDownstream(
  ctx: DeadlineContext,
  url: string | URL,
  init: RequestInit = {},
  opts: CallOptions = {},
): Promise<Response> {
  const { reserveMs = 20, minAttemptMs = 50, fetch: send = globalThis.fetch } = opts;
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (ctx.signal.aborted) {
    throw new DeadlineExceededError('the request was already cancelled', { cause: ctx.signal.reason });
  }
  if (left < minAttemptMs) {
    throw new DeadlineExceededError(`only ${left} ms left, below minAttemptMs (${minAttemptMs} ms)`);
  }

  const headers = new Headers(init.headers);
  headers.set(DEADLINE_HEADER, String(left));
  headers.set(REQUEST_ID_HEADER, ctx.requestId);
  return send(url, { ...init, headers, signal: attemptSignal(ctx.signal, left) });
}

/**
 * Aborts after `ms` or with `parent`. Built by hand rather than with
 * AbortSignal.any([parent, AbortSignal.timeout(ms)]): Node 20 may garbage-collect that
 * timeout source before it fires (nodejs/node#57736). The timer is unref'd, so it never keeps
 * the process alive, and it keeps running while the response body is read.
 */
function attemptSignal(parent: AbortSignal, ms: number): AbortSignal {
  const controller = new AbortController();
  const timer = setTimeout(
    () => controller.abort(new DeadlineExceededError(`downstream call exceeded its ${ms} ms`)),
    Math.min(Math.max(ms, 0), MAX_TIMER_MS),
  );
  timer.unref();
  const onParentAbort = () => {
    clearTimeout(timer);
    controller.abort(parent.reason);
  };
  parent.addEventListener('abort', onParentAbort, { once: true });
  controller.signal.addEventListener('abort', () => parent.removeEventListener('abort', onParentAbort), { once: true });
  return controller.signal;
}
