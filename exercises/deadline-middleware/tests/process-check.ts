// D8 is about the process, so it is checked in a separate Node process: it loads the learner's
// module, serves three requests with long budgets, closes its server, and must then exit by
// itself. A cleared timer, an unref()'d timer and AbortSignal.timeout (unref'd in Node) all let
// it exit; a live 60 s deadline timer keeps it running.
// Starting Node and stripping types take about 0.3 s, so 1-middleware.test.ts starts this check
// before its other tests and its D8 test only awaits the outcome.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Once its server is closed, a child without live timers exits within a few tens of ms (a loaded
// machine: a few hundred); one kept alive by a 60 s timer fails D8 after this long.
const EXIT_WITHIN_MS = 1000;

// The child strips the learner's types itself, so loading esbuild costs the test worker nothing.
const CHILD = `
import http from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [esbuildUrl, source, out] = process.argv.slice(2);
const esbuild = await import(esbuildUrl);
const { code } = await esbuild.transform(readFileSync(source, 'utf8'), {
  sourcefile: 'deadline.ts',
  loader: 'ts',
  format: 'esm',
  target: 'node20',
  tsconfigRaw: { compilerOptions: {} },
});
await esbuild.stop?.(); // its service process must not be what keeps this process alive
writeFileSync(out, code);
const { deadlineMiddleware } = await import(pathToFileURL(out).href);
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

export type ProcessOutcome = { kind: 'exited' } | { kind: 'alive' } | { kind: 'stuck' | 'crashed' | 'slow'; details: string };

export interface ProcessCheck {
  outcome: Promise<ProcessOutcome>;
  /** kills the child and removes its files */
  stop(): void;
}

export function startProcessCheck(): ProcessCheck {
  const dir = mkdtempSync(join(tmpdir(), 'deadline-d8-'));
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let child: ChildProcess | undefined;
  const sleepMs = (ms: number) =>
    new Promise<'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), ms);
      timers.add(timer);
    });

  const run = async (): Promise<ProcessOutcome> => {
    // everything up to the first await runs now, so the child exists before stop() can be called
    const childFile = join(dir, 'child.mjs');
    writeFileSync(childFile, CHILD);
    const esbuild = pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href;
    const source = fileURLToPath(new URL('../src/deadline.ts', import.meta.url));
    const args = [childFile, esbuild, source, join(dir, 'deadline.mjs')];
    const proc = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    let stdout = '';
    let stderr = '';
    proc.stdout!.on('data', (c) => (stdout += c));
    proc.stderr!.on('data', (c) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => {
      proc.once('exit', (code) => resolve(code));
      proc.once('error', (e) => {
        stderr += String(e);
        resolve(-1);
      });
    });
    const served = new Promise<void>((resolve) => {
      proc.stdout!.on('data', () => {
        if (stdout.includes('"d8":"served"')) resolve();
      });
    });
    const first = await Promise.race([served.then(() => 'served' as const), exited.then(() => 'exited' as const), sleepMs(10_000)]);
    if (first !== 'served') {
      if (stdout.includes('"d8":"stuck"')) return { kind: 'stuck', details: '' };
      if (first === 'exited') return { kind: 'crashed', details: stderr.slice(-600) || stdout.slice(-600) };
      return { kind: 'slow', details: 'did not finish within 10 s' };
    }
    const code = await Promise.race([exited, sleepMs(EXIT_WITHIN_MS).then(() => 'alive' as const)]);
    return code === 'alive' ? { kind: 'alive' } : { kind: 'exited' };
  };

  const outcome = run().catch((e): ProcessOutcome => ({ kind: 'crashed', details: String(e) }));
  return {
    outcome,
    stop() {
      for (const timer of timers) clearTimeout(timer);
      child?.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
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
    case 'slow':
      return `${what} ${outcome.details}`;
  }
}
