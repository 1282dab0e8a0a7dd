// Shared by the three services (read-only): the wire format of the deadline and a JSON reply.
// The services decide what to do with the budget; this file only reads and writes it.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The remaining budget of a request, in whole milliseconds, as a plain decimal integer. */
export const DEADLINE_HEADER = 'x-deadline-ms';
/** Kept back by a hop before it calls the next one: time to read the answer and reply. */
export const RESERVE_MS = 20;
/** Below this many milliseconds left, a hop does not start a call: it answers 504 at once. */
export const MIN_ATTEMPT_MS = 50;
/** C works in steps of this many milliseconds. */
export const TICK_MS = 10;
/** A service's own ceiling, and its budget when a request has no valid header. */
export const DEFAULT_BUDGET_MS = 1000;

/**
 * The budget this hop adopts for a request: min(x-deadline-ms, ceilingMs), or ceilingMs when the
 * header is absent or not 1 to 15 decimal digits (`1e3`, `-5`, `0.3`, `abc`, or the header twice).
 * A hop never gives itself more time than its caller gave it.
 */
export function budgetFrom(req: IncomingMessage, ceilingMs: number): number {
  const raw = req.headers[DEADLINE_HEADER];
  if (typeof raw !== 'string' || !/^[0-9]{1,15}$/.test(raw)) return ceilingMs;
  return Math.min(Number(raw), ceilingMs);
}

/** Answers with a JSON body; does nothing when the answer was already sent or the caller is gone. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Passes a downstream JSON body on as it came (same rules as sendJson). */
export function relayJson(res: ServerResponse, status: number, text: string): void {
  if (res.headersSent || res.writableEnded || res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(text);
}

export const DEADLINE_EXCEEDED = { error: 'deadline_exceeded' } as const;
export const BAD_GATEWAY = { error: 'bad_gateway' } as const;
