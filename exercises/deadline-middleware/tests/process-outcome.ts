// D8 is about the process: a process loads the learner's module, serves three requests with long
// budgets, closes its server, and must then exit by itself. A cleared timer, an unref()'d timer and
// AbortSignal.timeout (unref'd in Node) all let it exit; a live 60 s deadline timer keeps it running.
// In Node it is a child process (process-check.ts); in the page a worker with Node of its own
// (process-check.worker.ts). Both run SERVE_THREE and are judged here, the same way.

// Once its server is closed, a process without live timers exits within a few tens of ms (a loaded
// machine: a few hundred); one kept alive by a 60 s timer fails D8 after this long.
export const EXIT_WITHIN_MS = 1000;

/** The script's part after `deadlineMiddleware` and `http` are in scope. */
export const SERVE_THREE = `
const mw = deadlineMiddleware({ defaultBudgetMs: 60_000 });
const server = http.createServer((req, res) => {
  let nextCalled = false;
  mw(req, res, () => {
    nextCalled = true;
    setTimeout(() => { if (!res.writableEnded) res.end('ok'); }, 5);
  });
  if (!nextCalled && !res.writableEnded) {
    setTimeout(() => {
      if (nextCalled || res.writableEnded) return;
      process.stdout.write('\\n' + JSON.stringify({ d8: 'stuck' }) + '\\n');
      process.exit(3);
    }, 500).unref();
  }
});
const get = (headers) => new Promise((resolve, reject) => {
  const r = http.get({ host: '127.0.0.1', port: server.address().port, agent: false, headers: { connection: 'close', ...headers } }, (res) => {
    res.resume();
    res.on('end', () => resolve(res.statusCode));
  });
  r.on('error', reject);
});
server.listen(0, '127.0.0.1', async () => {
  const statuses = [await get({}), await get({ 'x-deadline-ms': '45000' }), await get({ 'x-deadline-ms': '0' })];
  server.close();
  server.closeAllConnections();
  process.stdout.write('\\n' + JSON.stringify({ d8: 'served', statuses }) + '\\n');
});
`;

export type ProcessOutcome =
  | { kind: 'exited' }
  | { kind: 'alive' }
  | { kind: 'stuck' | 'crashed' | 'slow'; details: string }
  | { kind: 'crashedAfterServing'; code: number | null; details: string };

export interface ProcessCheck {
  outcome: Promise<ProcessOutcome>;
  /** kills the process and removes its files */
  stop(): void;
}

/** A started process, whichever kind. */
export interface Started {
  onOutput(listener: (stream: 'stdout' | 'stderr', text: string) => void): void;
  /** its exit code (null when killed by a signal) */
  exited: Promise<number | null>;
  kill(): void;
}

/** Watches a process that runs SERVE_THREE and tells what it did. */
export function watchProcess(start: () => Started, cleanUp: () => void = () => {}): ProcessCheck {
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let child: Started | undefined;
  const sleepMs = (ms: number) =>
    new Promise<'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), ms);
      timers.add(timer);
    });

  const run = async (): Promise<ProcessOutcome> => {
    // everything up to the first await runs now, so the process exists before stop() can be called
    const proc = start();
    child = proc;
    let stdout = '';
    let stderr = '';
    let servedNow: () => void = () => {};
    const served = new Promise<void>((resolve) => (servedNow = resolve));
    proc.onOutput((stream, text) => {
      if (stream === 'stderr') return void (stderr += text);
      stdout += text;
      if (stdout.includes('"d8":"served"')) servedNow();
    });
    const first = await Promise.race([served.then(() => 'served' as const), proc.exited.then(() => 'exited' as const), sleepMs(10_000)]);
    if (first !== 'served') {
      if (stdout.includes('"d8":"stuck"')) return { kind: 'stuck', details: '' };
      if (first === 'exited') return { kind: 'crashed', details: stderr.slice(-600) || stdout.slice(-600) };
      return { kind: 'slow', details: 'did not finish within 10 s' };
    }
    const code = await Promise.race([proc.exited, sleepMs(EXIT_WITHIN_MS).then(() => 'alive' as const)]);
    if (code === 'alive') return { kind: 'alive' };
    // Only exit code 0 is exiting by itself: a process that throws from a timer or a listener also
    // ends, with code 1, and would otherwise hide the 60 s timer that was keeping it alive.
    return code === 0 ? { kind: 'exited' } : { kind: 'crashedAfterServing', code, details: stderr.slice(-600) || stdout.slice(-600) };
  };

  const outcome = run().catch((e): ProcessOutcome => ({ kind: 'crashed', details: String(e) }));
  return {
    outcome,
    stop() {
      for (const timer of timers) clearTimeout(timer);
      child?.kill();
      cleanUp();
    },
  };
}

/** The D8 verdict for an outcome: undefined when the process exited by itself. */
export function processProblem(outcome: ProcessOutcome): string | undefined {
  const what = 'the test process (three requests through your middleware, then close the server)';
  switch (outcome.kind) {
    case 'exited':
      return undefined;
    case 'alive':
      return `three requests (with 60 s and 45 s budgets, and one 504) were answered and the server was closed, but the process was still running ${EXIT_WITHIN_MS} ms later: a deadline timer keeps it alive. Clear it when the response finishes, or unref() it.`;
    case 'stuck':
      return `${what} got stuck: your middleware neither called next() nor answered`;
    case 'crashed':
      return `${what} crashed: ${outcome.details}`;
    case 'crashedAfterServing': {
      const how = outcome.code === null ? 'was killed' : `crashed with exit code ${outcome.code}`;
      return `three requests were answered and the server was closed, but then the process ${how} instead of exiting by itself: ${outcome.details.trim() || '(no output)'}. A crash is not an exit: an error thrown from a timer or a listener ends the process whatever keeps it alive, so D8 needs it to end with code 0, with nothing of the middleware left running.`;
    }
    case 'slow':
      return `${what} ${outcome.details}`;
  }
}
