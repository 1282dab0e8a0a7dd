// D8 in Node: the check of process-outcome.ts in a child Node process.
// Starting Node and stripping types take about 0.3 s, so 1-middleware.test.ts starts this check
// before its other tests and its D8 test only awaits the outcome.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type ProcessCheck, SERVE_THREE, watchProcess } from './process-outcome.ts';

export { processProblem, type ProcessCheck } from './process-outcome.ts';

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
${SERVE_THREE}`;

export function startProcessCheck(): ProcessCheck {
  const dir = mkdtempSync(join(tmpdir(), 'deadline-d8-'));
  return watchProcess(
    () => {
      const childFile = join(dir, 'child.mjs');
      writeFileSync(childFile, CHILD);
      const esbuild = pathToFileURL(createRequire(import.meta.url).resolve('esbuild')).href;
      const source = fileURLToPath(new URL('../src/deadline.ts', import.meta.url));
      const proc = spawn(process.execPath, [childFile, esbuild, source, join(dir, 'deadline.mjs')], { stdio: ['ignore', 'pipe', 'pipe'] });
      const listeners: Array<(stream: 'stdout' | 'stderr', text: string) => void> = [];
      const tell = (stream: 'stdout' | 'stderr', text: string) => {
        for (const l of listeners) l(stream, text);
      };
      proc.stdout!.on('data', (c) => tell('stdout', String(c)));
      proc.stderr!.on('data', (c) => tell('stderr', String(c)));
      const exited = new Promise<number | null>((resolve) => {
        proc.once('exit', (code) => resolve(code));
        proc.once('error', (e) => {
          tell('stderr', String(e));
          resolve(-1);
        });
      });
      return { onOutput: (l) => void listeners.push(l), exited, kill: () => proc.kill('SIGKILL') };
    },
    () => rmSync(dir, { recursive: true, force: true }),
  );
}
