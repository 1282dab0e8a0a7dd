// Alternative: every required branch has the same limit and so has every optional one, so two
// group timers and two group signals are enough; the call is a race between "everything
// settled" and "a required branch failed, ran out of time, or the caller left".
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

type Attempt<T> = { ok: true; value: T } | { ok: false; error: unknown };

function attempt<T>(branch: Branch<T>, signal: AbortSignal, ms: number): Promise<Attempt<T>> {
  return new Promise<T>((resolve) => resolve(branch.call(signal, ms))).then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

export async function fanOut<T>(
  ctx: DeadlineLike,
  branches: Branch<T>[],
  opts: FanOutOptions = {},
): Promise<FanOutResult<T>> {
  const reserveMs = opts.reserveMs ?? 20;
  if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (left <= 0) throw new FanOutError('no-time-left');
  const optionalMs = Math.min(left, opts.optionalCutoffMs ?? left);

  const requiredStop = new AbortController();
  const optionalStop = new AbortController();
  const settledNames = new Set<string>();
  let fail!: (error: FanOutError) => void;
  const fatal = new Promise<never>((_, reject) => (fail = reject));
  let cut!: () => void;
  const cutoff = new Promise<'cut'>((resolve) => (cut = () => resolve('cut')));

  const onCallerAbort = () => fail(new FanOutError('aborted', undefined, { cause: ctx.signal.reason }));
  ctx.signal.addEventListener('abort', onCallerAbort, { once: true });
  const requiredTimer = setTimeout(() => {
    const late = branches.find((b) => b.required && !settledNames.has(b.name));
    requiredStop.abort(new DOMException('required branches ran out of time', 'TimeoutError'));
    if (late) fail(new FanOutError('timed-out', late.name));
  }, left);
  const optionalTimer = setTimeout(() => {
    optionalStop.abort(new DOMException('optional cutoff', 'TimeoutError'));
    cut();
  }, optionalMs);

  const outcomes = branches.map(async (branch) => {
    if (branch.required) {
      const got = await attempt(branch, requiredStop.signal, left);
      settledNames.add(branch.name);
      if (!got.ok) fail(new FanOutError('failed', branch.name, { cause: got.error }));
      return got;
    }
    const got = await Promise.race([attempt(branch, optionalStop.signal, optionalMs), cutoff]);
    return got === 'cut' ? ({ ok: false, error: 'cut' } as const) : got;
  });

  try {
    const all = await Promise.race([Promise.all(outcomes), fatal]);
    const results: Record<string, T> = {};
    const dropped: string[] = [];
    all.forEach((got, i) => {
      const name = branches[i]!.name;
      if (got.ok) results[name] = got.value;
      else dropped.push(name);
    });
    return { results, dropped };
  } finally {
    clearTimeout(requiredTimer);
    clearTimeout(optionalTimer);
    ctx.signal.removeEventListener('abort', onCallerAbort);
    requiredStop.abort(new Error('fan-out finished'));
    optionalStop.abort(new Error('fan-out finished'));
  }
}
