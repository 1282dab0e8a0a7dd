// expect-fail: F1
// Bug: Awaits each branch before calling the next: the branches run one after another.
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
  const results: Record<string, T> = {};
  const dropped: string[] = [];
  for (const branch of branches) {
    const timeoutMs = branch.required ? left : Math.min(left, optionalCutoffMs);
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort(ctx.signal.reason);
    ctx.signal.addEventListener('abort', onCallerAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed-out'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new DOMException('out of time', 'TimeoutError'));
        resolve('timed-out');
      }, timeoutMs);
    });
    try {
      const outcome = await Promise.race([
        Promise.resolve().then(() => branch.call(controller.signal, timeoutMs)).then((value) => ({ value })),
        timedOut,
      ]);
      if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
      if (outcome === 'timed-out') {
        if (branch.required) throw new FanOutError('timed-out', branch.name);
        dropped.push(branch.name);
      } else {
        results[branch.name] = outcome.value;
      }
    } catch (error) {
      if (error instanceof FanOutError) throw error;
      if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
      if (branch.required) throw new FanOutError('failed', branch.name, { cause: error });
      dropped.push(branch.name);
    } finally {
      clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onCallerAbort);
    }
  }
  return { results, dropped };
}
