// expect-fail: F4, F5, F7
// Bug: Promise.allSettled waits until every branch has settled: a branch that ignores its signal
// holds the whole response past its timeout, the cutoff and the deadline.
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

  const requiredFailed = new AbortController();
  const outcomes = await Promise.allSettled(
    branches.map(async (branch) => {
      const limit = branch.required ? left : Math.min(left, optionalCutoffMs);
      const timeout = AbortSignal.timeout(limit);
      const signal = AbortSignal.any([ctx.signal, requiredFailed.signal, timeout]);
      try {
        return await branch.call(signal, limit);
      } catch (error) {
        const reason = timeout.aborted ? ('timed-out' as const) : ('failed' as const);
        if (branch.required) requiredFailed.abort(error);
        throw new FanOutError(reason, branch.name, { cause: error });
      }
    }),
  );
  if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
  const result: FanOutResult<T> = { results: {}, dropped: [] };
  let firstRequired: unknown;
  for (const [i, outcome] of outcomes.entries()) {
    const branch = branches[i]!;
    if (outcome.status === 'fulfilled') result.results[branch.name] = outcome.value;
    else if (branch.required) firstRequired ??= outcome.reason;
    else result.dropped.push(branch.name);
  }
  if (firstRequired) throw firstRequired;
  return result;
}
