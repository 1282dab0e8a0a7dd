// Fan-out under one deadline: make every rule F1-F10 of the brief hold.
// Fan-out dưới một deadline: hãy làm cho mọi rule F1-F10 trong đề bài đều đạt.

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

/** Calls every branch in parallel under the caller's deadline. The brief lists the rules F1-F10. */
export async function fanOut<T>(ctx: DeadlineLike, branches: Branch<T>[], opts: FanOutOptions = {}): Promise<FanOutResult<T>> {
  const { reserveMs = 20, optionalCutoffMs = Infinity } = opts;
  // TODO F9: an already aborted ctx.signal: reject with FanOutError('aborted'), call nothing.
  // TODO F2-F3: left = Math.floor(ctx.remaining() - reserveMs); not positive: FanOutError('no-time-left').
  // TODO F1, F2: call every branch at once with its own signal and timeoutMs
  //              (required: left; optional: Math.min(left, optionalCutoffMs)).
  // TODO F4-F5: a required branch that fails or runs out of time rejects the call at once
  //             and aborts every branch still running.
  // TODO F6-F8: optional failures and cutoffs are dropped; resolve { results, dropped }.
  // TODO F9-F10: follow ctx.signal; leave no timer behind once the call has settled.
  void ctx;
  void branches;
  void reserveMs;
  void optionalCutoffMs;
  throw new Error('TODO: fanOut is not written yet');
}
