import { spawn } from 'node:child_process';
import { expect, test } from 'vitest';
import { WarmProcess } from './warm-process.ts';

// A process that has stopped reading (dying, or killed by the Ctrl-C that reached its process group)
// but has not exited yet: the round written to it fails with EPIPE. That must end the round as a
// crashed one, not the grader (an 'error' event with no listener throws).
test('a round written to a process that no longer reads ends as a crashed round once it exits', async () => {
  const child = spawn(process.execPath, ['-e', "require('node:fs').closeSync(0); process.stdout.write('closed\\n'); setTimeout(() => process.exit(0), 300);"], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const closed = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const warm = new WarmProcess(child, () => child.kill('SIGKILL'), 10_000);
  await closed;
  const result = await warm.round(5_000);
  expect(result.exitCode).toBeNull();
  expect(result.timedOut).toBe(false);
  expect(warm.alive).toBe(false);
});
