// expect-fail: F9
// Bug: Passes the caller's abort on to the branches and lets their failures decide: an optional branch
// cut by the abort is "dropped" and the call resolves instead of rejecting with 'aborted'.

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

// Node fires a longer timer after about 1 ms instead of never.
const MAX_TIMER_MS = 2 ** 31 - 1;

export async function fanOut<T>(
  ctx: DeadlineLike,
  branches: Branch<T>[],
  opts: FanOutOptions = {},
): Promise<FanOutResult<T>> {
  const { reserveMs = 20, optionalCutoffMs = Infinity } = opts;
  if (ctx.signal.aborted) throw new FanOutError('aborted', undefined, { cause: ctx.signal.reason });
  // One budget for everybody, read once: parallel branches share the deadline, they do not split it.
  const left = Math.floor(ctx.remaining() - reserveMs);
  if (left <= 0) throw new FanOutError('no-time-left');
  const optionalMs = Math.min(left, optionalCutoffMs);

  return new Promise<FanOutResult<T>>((resolve, reject) => {
    const results: Record<string, T> = {};
    const dropped = new Set<number>();
    const controllers: AbortController[] = [];
    const timers: Array<ReturnType<typeof setTimeout>> = [];
    const settled: boolean[] = [];
    let pending = branches.length;
    let done = false;

    // Settles the whole call once. Whatever is still running is aborted (nobody will read its
    // answer) and every timer is cleared, so nothing outlives the result.
    const finish = (error?: FanOutError) => {
      if (done) return;
      done = true;
      for (const timer of timers) clearTimeout(timer);
      ctx.signal.removeEventListener('abort', onCallerAbort);
      controllers.forEach((controller, i) => {
        if (!settled[i]) controller.abort(error ?? new Error('fan-out finished without this branch'));
      });
      if (error) reject(error);
      // In the order the branches were given, not the order they dropped out: stable for clients.
      else resolve({ results, dropped: branches.filter((_, i) => dropped.has(i)).map((b) => b.name) });
    };
    // Bug: passes the caller's abort on to the branches and lets their failures decide the outcome.
    const onCallerAbort = () => controllers.forEach((c, i) => !settled[i] && c.abort(ctx.signal.reason));
    ctx.signal.addEventListener('abort', onCallerAbort, { once: true });

    const branchDone = () => {
      pending -= 1;
      if (pending === 0) finish();
    };

    // A branch that fails or runs out of time: fatal when required, a drop when optional.
    const lose = (i: number, reason: 'failed' | 'timed-out', cause?: unknown) => {
      const branch = branches[i]!;
      if (branch.required && ctx.signal.aborted) return finish(new FanOutError('aborted', undefined, { cause: ctx.signal.reason }));
      if (branch.required) return finish(new FanOutError(reason, branch.name, { cause }));
      dropped.add(i);
      branchDone();
    };

    for (const [i, branch] of branches.entries()) {
      const controller = new AbortController();
      controllers[i] = controller;
      settled[i] = false;
      const timeoutMs = branch.required ? left : optionalMs;

      // The helper's own timer decides "out of time": a branch that ignores its signal cannot
      // hold the response past its limit.
      timers[i] = setTimeout(() => {
        if (settled[i] || done) return;
        settled[i] = true;
        controller.abort(new DOMException(`branch "${branch.name}" ran out of time`, 'TimeoutError'));
        lose(i, 'timed-out');
      }, Math.min(timeoutMs, MAX_TIMER_MS));

      let outcome: Promise<T>;
      try {
        outcome = Promise.resolve(branch.call(controller.signal, timeoutMs));
      } catch (error) {
        outcome = Promise.reject(error); // a synchronous throw is a failure like any other
      }
      outcome.then(
        (value) => {
          if (settled[i] || done) return;
          settled[i] = true;
          clearTimeout(timers[i]);
          results[branch.name] = value;
          branchDone();
        },
        (error: unknown) => {
          if (settled[i] || done) return;
          settled[i] = true;
          clearTimeout(timers[i]);
          lose(i, 'failed', error);
        },
      );
    }
    if (branches.length === 0) finish();
  });
}
