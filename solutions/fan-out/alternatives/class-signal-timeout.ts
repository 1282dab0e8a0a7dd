// Alternative: a class per call; each branch's limit is an AbortSignal.timeout (unref'd in Node,
// so nothing outlives the call) that the run listens to, and one shared controller stops every
// branch when the run ends.
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

class FanOutRun<T> {
  readonly result: Promise<FanOutResult<T>>;
  private readonly values: Record<string, T> = {};
  private readonly droppedNames = new Set<string>();
  private readonly stop = new AbortController();
  private open: number;
  private over = false;
  private resolve!: (r: FanOutResult<T>) => void;
  private reject!: (e: FanOutError) => void;

  constructor(
    private readonly ctx: DeadlineLike,
    private readonly branches: Branch<T>[],
    private readonly left: number,
    private readonly optionalMs: number,
  ) {
    this.open = branches.length;
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  start(): Promise<FanOutResult<T>> {
    this.ctx.signal.addEventListener('abort', this.onCallerAbort, { once: true });
    for (const branch of this.branches) this.startBranch(branch);
    if (this.open === 0) this.end();
    return this.result;
  }

  private readonly onCallerAbort = () => this.end(new FanOutError('aborted', undefined, { cause: this.ctx.signal.reason }));

  private startBranch(branch: Branch<T>) {
    const ms = branch.required ? this.left : this.optionalMs;
    const limit = AbortSignal.timeout(ms);
    // The branch stops when its own limit passes or when the whole run ends.
    const signal = AbortSignal.any([this.stop.signal, limit]);
    let finished = false;
    const onLimit = () => {
      if (finished) return;
      finished = true;
      this.lost(branch, 'timed-out');
    };
    limit.addEventListener('abort', onLimit, { once: true });
    // new Promise(...) turns a synchronous throw into a rejection.
    new Promise<T>((resolve) => resolve(branch.call(signal, ms))).then(
      (value) => {
        if (finished) return;
        finished = true;
        limit.removeEventListener('abort', onLimit);
        this.values[branch.name] = value;
        this.branchEnded();
      },
      (error: unknown) => {
        if (finished) return;
        finished = true;
        limit.removeEventListener('abort', onLimit);
        this.lost(branch, 'failed', error);
      },
    );
  }

  private lost(branch: Branch<T>, reason: 'failed' | 'timed-out', cause?: unknown) {
    if (branch.required) return this.end(new FanOutError(reason, branch.name, { cause }));
    this.droppedNames.add(branch.name);
    this.branchEnded();
  }

  private branchEnded() {
    this.open -= 1;
    if (this.open === 0) this.end();
  }

  private end(error?: FanOutError) {
    if (this.over) return;
    this.over = true;
    this.ctx.signal.removeEventListener('abort', this.onCallerAbort);
    this.stop.abort(error ?? new Error('fan-out finished'));
    if (error) return this.reject(error);
    const dropped = this.branches.map((b) => b.name).filter((name) => this.droppedNames.has(name));
    this.resolve({ results: this.values, dropped });
  }
}

export async function fanOut<T>(
  ctx: DeadlineLike,
  branches: Branch<T>[],
  opts: FanOutOptions = {},
): Promise<FanOutResult<T>> {
  const { reserveMs = 20, optionalCutoffMs } = opts;
  if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (left <= 0) throw new FanOutError('no-time-left');
  const optionalMs = optionalCutoffMs === undefined ? left : Math.min(left, optionalCutoffMs);
  return new FanOutRun(ctx, branches, left, optionalMs).start();
}
