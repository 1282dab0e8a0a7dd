/** Runs tasks one after another (a grading run is CPU-bound, and a sandbox holds one run at a time). */
export function serialQueue() {
  let tail: Promise<unknown> = Promise.resolve();
  return function enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = tail.then(task, task);
    tail = result.catch(() => undefined);
    return result;
  };
}

/**
 * The learner's "Run" requests: at most one runs, and while it runs only the latest request waits
 * (pressing Run five times during a run grades the newest code once more, not five times).
 */
export function latestWinsQueue<T, R>(run: (input: T) => Promise<R>) {
  let running = false;
  let pending: { input: T; resolve: (r: R | undefined) => void; reject: (e: unknown) => void } | undefined;
  async function drain(input: T): Promise<R> {
    running = true;
    try {
      return await run(input);
    } finally {
      running = false;
      const next = pending;
      pending = undefined;
      if (next) drain(next.input).then(next.resolve, next.reject);
    }
  }
  /** Resolves with the result, or undefined when a newer request replaced this one before it ran. */
  return function request(input: T): Promise<R | undefined> {
    if (!running) return drain(input);
    pending?.resolve(undefined);
    return new Promise((resolve, reject) => (pending = { input, resolve, reject }));
  };
}
