import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { parentPidFromStat, privateKbFromStatus, processTree, treeMemoryMb } from './proc-tree.ts';

describe('proc-tree', () => {
  test('the parent pid is read after the command name, which may hold spaces and parentheses', () => {
    expect(parentPidFromStat('1234 (node (worker) x) S 99 1234 1234 0 -1')).toBe(99);
    expect(parentPidFromStat('garbage')).toBeUndefined();
  });

  test('private memory is anonymous plus shared-memory pages, not file pages', () => {
    const status = 'Name:\tnode\nVmRSS:\t  50000 kB\nRssAnon:\t   8000 kB\nRssFile:\t  42000 kB\nRssShmem:\t    100 kB\n';
    expect(privateKbFromStatus(status)).toBe(8100);
  });

  test.skipIf(process.platform !== 'linux')('a tree holds a child and a grandchild, and its memory is measured', async () => {
    const child = spawn('sh', ['-c', 'sleep 30 & wait'], { stdio: 'ignore' });
    let tree: number[] = [];
    try {
      await new Promise((r) => setTimeout(r, 300));
      tree = processTree(child.pid!);
      expect(tree[0]).toBe(child.pid);
      expect(tree.length).toBeGreaterThanOrEqual(2); // sh and its sleep
      expect(processTree(process.pid)).toContain(child.pid);
      expect(treeMemoryMb(process.pid)).toBeGreaterThan(5); // this vitest worker
    } finally {
      for (const pid of tree.length ? tree : [child.pid!]) process.kill(pid, 'SIGKILL');
    }
  });
});
