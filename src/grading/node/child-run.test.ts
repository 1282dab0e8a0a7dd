import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ChildGroup } from './child-run.ts';

const registry = () => {
  const seen: ChildProcess[] = [];
  let stopping = false;
  return {
    seen,
    stop: () => {
      stopping = true;
    },
    assertRunning: () => {
      if (stopping) throw new Error('stopping');
    },
    child: (child: ChildProcess) => void seen.push(child),
  };
};

// The child starts a grandchild that inherits its output pipes and outlives it, as a learner's
// server does, prints the grandchild's pid and exits.
const LEAVES_A_GRANDCHILD = `
const { spawn } = require('node:child_process');
const g = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'inherit' });
console.log(g.pid);
process.exit(0);`;

/** Running, not a zombie waiting for the reaper (Linux reports that in /proc, elsewhere it stays "alive"). */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
};
const stopsWithin = async (pid: number, ms: number) => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) if (!alive(pid)) return true;
  return !alive(pid);
};

describe('ChildGroup', () => {
  test("keeps a child past 'exit' while its pipes are open, so killAll still reaches its group", async () => {
    const reg = registry();
    const group = new ChildGroup(reg);
    const child = group.spawn(process.execPath, ['-e', LEAVES_A_GRANDCHILD], { stdio: ['ignore', 'pipe', 'pipe'] });
    expect(reg.seen).toEqual([child]);
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
    const closed = once(child, 'close');
    await once(child, 'exit');
    const grandchild = Number(output.trim());
    expect(alive(grandchild)).toBe(true);
    expect(group.size, "tracked after 'exit': the grandchild holds the pipes").toBe(1);
    group.killAll();
    await closed;
    expect(group.size).toBe(0);
    expect(await stopsWithin(grandchild, 2000)).toBe(true);
  });

  test('starts nothing once the process is stopping', () => {
    const reg = registry();
    reg.stop();
    expect(() => new ChildGroup(reg).spawn(process.execPath, ['-e', ''], {})).toThrow('stopping');
    expect(reg.seen).toEqual([]);
  });
});
