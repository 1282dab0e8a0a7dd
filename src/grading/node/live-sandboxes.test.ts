// A process stopped by SIGINT or SIGTERM exits with the signal's code once its sandboxes are gone,
// even when a step under way fails after the signal (as a sandbox refusing to start then does): a
// real Node process, run by tsx as the CLI scripts are.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { REPO_ROOT } from './fs-source.ts';
import { removeTreeSync } from './remove-tree.ts';

const TSX = join(REPO_ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const dir = mkdtempSync(join(tmpdir(), 'live-sandboxes-'));
afterAll(() => removeTreeSync(dir));

const SCRIPT = `
import { killSandboxesOnSignals } from ${JSON.stringify(join(REPO_ROOT, 'src/grading/node/live-sandboxes.ts'))};
killSandboxesOnSignals();
const failLater = () => {
  // What a grade under way does once the signal has come: a promise nobody awaits yet rejects, and a callback throws.
  void Promise.reject(new Error('the grader is stopping'));
  setImmediate(() => { throw new Error('a callback failed'); });
};
process.on('SIGINT', failLater);
process.on('SIGTERM', failLater);
setInterval(() => {}, 1000);
process.stdout.write('ready\\n');
`;

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal}: the exit code is ${code} though steps fail after the signal`, async () => {
    const file = join(dir, `stop-${signal}.ts`);
    writeFileSync(file, SCRIPT);
    const child = spawn(process.execPath, [TSX, file], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await new Promise<void>((resolve) => child.stdout.on('data', (c: Buffer) => c.toString().includes('ready') && resolve()));
    const ended = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
    child.kill(signal);
    expect(await ended, stderr).toBe(code);
  }, 30_000);
}
