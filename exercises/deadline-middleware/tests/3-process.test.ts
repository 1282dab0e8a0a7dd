// D8 is about the process, so it is checked in a separate Node process: it loads the learner's
// module, serves three requests with long budgets, closes its server, and must then exit by
// itself. A cleared timer, an unref()'d timer and AbortSignal.timeout (unref'd in Node) all let
// it exit; a live 60 s deadline timer keeps it running.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { transformWithEsbuild } from 'vite';
import { afterEach, expect, test } from 'vitest';
import { cleanup, onCleanup } from './harness.ts';

afterEach(cleanup);

const EXIT_WITHIN_MS = 5000;

const CHILD = `
import http from 'node:http';
const { deadlineMiddleware } = await import(process.argv[2]);
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

async function compileLearnerModule(dir: string): Promise<string> {
  const file = new URL('../src/deadline.ts', import.meta.url);
  const { code } = await transformWithEsbuild(readFileSync(file, 'utf8'), 'deadline.ts', {
    loader: 'ts',
    format: 'esm',
    target: 'node20',
    tsconfigRaw: { compilerOptions: {} },
  });
  const out = join(dir, 'deadline.mjs');
  writeFileSync(out, code);
  return pathToFileURL(out).href;
}

test('D8 no timer of the middleware keeps the process alive once the response has finished', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deadline-d8-'));
  onCleanup(() => rmSync(dir, { recursive: true, force: true }));
  const learner = await compileLearnerModule(dir);
  const childFile = join(dir, 'child.mjs');
  writeFileSync(childFile, CHILD);

  const child: ChildProcess = spawn(process.execPath, [childFile, learner], { stdio: ['ignore', 'pipe', 'pipe'] });
  onCleanup(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', (e) => {
      stderr += String(e);
      resolve(-1);
    });
  });

  let servedAt: number | undefined;
  const served = new Promise<void>((resolve) => {
    child.stdout!.on('data', () => {
      if (servedAt === undefined && stdout.includes('"d8":"served"')) {
        servedAt = performance.now();
        resolve();
      }
    });
  });
  const first = await Promise.race([served.then(() => 'served' as const), exited.then(() => 'exited' as const), sleepMs(10_000)]);
  if (first !== 'served') {
    const why = stdout.includes('"d8":"stuck"')
      ? 'got stuck: your middleware neither called next() nor answered'
      : first === 'exited'
        ? `crashed: ${stderr.slice(-600) || stdout.slice(-600)}`
        : 'did not finish within 10 s';
    throw new Error(`the test process (three requests through your middleware, then close the server) ${why}`);
  }
  const code = await Promise.race([exited, sleepMs(EXIT_WITHIN_MS).then(() => 'alive' as const)]);
  expect(
    code,
    `three requests (with 60 s and 45 s budgets, and one 504) were answered and the server was closed, but the process was still running ${EXIT_WITHIN_MS} ms later: a deadline timer keeps it alive. Clear it when the response finishes, or unref() it.`,
  ).not.toBe('alive');
}, 20_000);

function sleepMs(ms: number): Promise<'timeout'> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), ms);
    onCleanup(() => clearTimeout(timer));
  });
}
