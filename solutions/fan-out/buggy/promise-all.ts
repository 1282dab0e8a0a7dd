// expect-fail: F4, F6
// Bug: Promise.all over every branch: one optional failure kills the request, and a failure
// leaves the other branches running.
/** The part of deadline-middleware's DeadlineContext that fanOut reads: pass `req.deadline`. */
export interface DeadlineLike {
  signal: AbortSignal; // aborts at the deadline, or when the client goes away
  remaining(): number; // ms left on the deadline, never below 0
}

export interface Branch<T = unknown> {
  name: string; // unique within one fanOut call
  required: boolean;
  call: (signal: AbortSignal, timeoutMs: number) => Promise<T>;
}

export interface FanOutOptions {
  reserveMs?: number; // kept back for assembling the response; default 20
  optionalCutoffMs?: number; // whole ms after the start; default: none (optional branches get left too)
}

export interface FanOutResult<T = unknown> {
  results: Record<string, T>; // every branch that succeeded in time, by name
  dropped: string[]; // optional branches that failed or missed their cutoff, in the order given
}

export type FanOutReason =
  | 'no-time-left' // remaining() - reserveMs left no whole millisecond: nothing was called
  | 'aborted' // the caller's signal aborted (before the start or while branches ran)
  | 'failed' // a required branch rejected (or threw)
  | 'timed-out'; // a required branch did not finish within its timeoutMs

export class FanOutError extends Error {
  readonly reason: FanOutReason;
  readonly branch?: string; // the required branch that failed or timed out

  constructor(reason: FanOutReason, branch?: string, opts?: { cause?: unknown }) {
    super(branch === undefined ? `fan-out ${reason}` : `fan-out ${reason}: required branch "${branch}"`, {
      cause: opts?.cause,
    });
    this.name = 'FanOutError';
    this.reason = reason;
    if (branch !== undefined) this.branch = branch;
  }
}

export async function fanOut<T>(
  ctx: DeadlineLike,
  branches: Branch<T>[],
  opts: FanOutOptions = {},
): Promise<FanOutResult<T>> {
  const { reserveMs = 20, optionalCutoffMs = Infinity } = opts;
  if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (left <= 0) throw new FanOutError('no-time-left');
  const entries = await Promise.all(
    branches.map(async (branch) => {
      const timeoutMs = branch.required ? left : Math.min(left, optionalCutoffMs);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(timeoutMs)]);
      return [branch.name, await branch.call(signal, timeoutMs)] as const;
    }),
  );
  return { results: Object.fromEntries(entries) as Record<string, T>, dropped: [] };
}
