import { describe, expect, test } from 'vitest';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import { toTree } from './wc-api.ts';
import { WebContainerSandbox } from './wc-sandbox.ts';

describe('WebContainerSandbox', () => {
  test('mounts flat paths as a nested tree and reads them back', async () => {
    const wc = new FakeWebContainer();
    const sandbox = new WebContainerSandbox(wc);
    await sandbox.mount({ 'src/retry.ts': 'a', 'tests/x/y.test.ts': 'b', 'package.json': '{}' });
    expect(await sandbox.readFile('src/retry.ts')).toBe('a');
    expect(await sandbox.readFile('tests/x/y.test.ts')).toBe('b');
    expect(await sandbox.readFile('missing.txt')).toBeUndefined();
  });

  test('a file and a folder of the same name are refused', () => {
    expect(() => toTree({ a: '1', 'a/b': '2' })).toThrow(/a is a file/);
  });

  test('runs a command with the env, collects its output and exit code', async () => {
    const wc = new FakeWebContainer();
    wc.onSpawn = () => ({ output: ['hello ', 'world'], exitCode: 1 });
    const result = await new WebContainerSandbox(wc).run('node', ['x.mjs'], { timeoutMs: 1000, env: { A: '1' } });
    expect(result).toMatchObject({ exitCode: 1, timedOut: false, output: 'hello world' });
    expect(wc.spawns[0]).toMatchObject({ command: 'node', args: ['x.mjs'], env: { A: '1', NO_COLOR: '1' } });
  });

  test('kills a command that outlives its limit and reports a timeout', async () => {
    const wc = new FakeWebContainer();
    wc.onSpawn = () => ({ hang: true, output: ['looping'] });
    const started = Date.now();
    const result = await new WebContainerSandbox(wc).run('node', ['loop.mjs'], { timeoutMs: 50 });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(wc.killed).toHaveLength(1);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test('kill() ends a running command even if the process never reports its exit', async () => {
    const wc = new FakeWebContainer();
    wc.onSpawn = () => ({ hang: true });
    const sandbox = new WebContainerSandbox(wc);
    const running = sandbox.run('node', ['loop.mjs'], { timeoutMs: 60_000 });
    await new Promise((r) => setTimeout(r, 10));
    await sandbox.kill();
    expect(await running).toMatchObject({ exitCode: null, timedOut: false });
    expect(wc.killed).toHaveLength(1);
  });

  test('a process still alive after its kill marks the container stuck; one that exits does not', async () => {
    for (const hang of [true, false]) {
      const wc = new FakeWebContainer();
      let stuck = false;
      wc.onSpawn = () => (hang ? { hang: true } : { hang: true, exitAfterKill: true });
      const sandbox = new WebContainerSandbox(wc, () => (stuck = true), 30);
      const running = sandbox.run('node', ['loop.mjs'], { timeoutMs: 60_000 });
      await new Promise((r) => setTimeout(r, 10));
      await sandbox.kill();
      await running;
      await new Promise((r) => setTimeout(r, 80));
      expect(stuck, hang ? 'never exits' : 'exits when killed').toBe(hang);
    }
  });
});
