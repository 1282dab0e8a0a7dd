import { describe, expect, test } from 'vitest';
import { bwrapArgs, bwrapCommand, type BwrapPlan } from './bwrap-args.ts';

const plan: BwrapPlan = {
  system: [{ path: '/usr' }, { path: '/lib', symlink: 'usr/lib' }],
  etc: { hosts: '/b/etc/hosts' },
  readOnly: ['/opt/node/bin/node'],
  workspace: '/tmp/g/work',
  nodeModules: { vitest: '/repo/exercises/_env/node_modules/vitest' },
  tmpBytes: 1024,
  env: { HOME: '/tmp/g/work' },
  prlimit: '/usr/bin/prlimit',
  limits: { processes: 100, fileBytes: 2048, dataBytes: 4096 },
  command: '/opt/node/bin/node',
  args: ['-e', '1'],
};

/** Position of the first occurrence of `run` (consecutive arguments) in `args`. */
const at = (args: string[], ...run: string[]) => args.findIndex((_, i) => run.every((r, j) => args[i + j] === r));

describe('bwrapArgs', () => {
  const args = bwrapArgs(plan);

  test('every namespace is unshared, nested user namespaces are refused, the run dies with the grader', () => {
    for (const flag of ['--unshare-all', '--unshare-user', '--disable-userns', '--die-with-parent', '--new-session']) expect(args).toContain(flag);
    expect(args).not.toContain('--share-net');
  });

  test('the host is visible only through the listed read-only paths; the workspace is the one writable bind', () => {
    expect(at(args, '--ro-bind', '/usr', '/usr')).toBeGreaterThan(-1);
    expect(at(args, '--symlink', 'usr/lib', '/lib')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/b/etc/hosts', '/etc/hosts')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/opt/node/bin/node', '/opt/node/bin/node')).toBeGreaterThan(-1);
    expect(at(args, '--ro-bind', '/repo/exercises/_env/node_modules/vitest', '/tmp/g/work/node_modules/vitest')).toBeGreaterThan(-1);
    const writable = args.flatMap((a, i) => (a === '--bind' ? [args[i + 2]] : []));
    expect(writable).toEqual(['/tmp/g/work']);
  });

  test('/tmp is mounted before the workspace (which it would hide) and / and /dev end read-only', () => {
    expect(at(args, '--tmpfs', '/tmp')).toBeLessThan(at(args, '--bind', '/tmp/g/work', '/tmp/g/work'));
    expect(at(args, '--size', '1024', '--tmpfs', '/tmp')).toBeGreaterThan(-1);
    expect(at(args, '--remount-ro', '/')).toBeGreaterThan(at(args, '--ro-bind', '/repo/exercises/_env/node_modules/vitest'));
    expect(at(args, '--remount-ro', '/dev')).toBeGreaterThan(at(args, '--tmpfs', '/dev/shm'));
  });

  test('a clean environment, then prlimit sets the kernel limits before the command', () => {
    expect(at(args, '--clearenv', '--setenv', 'HOME', '/tmp/g/work')).toBeGreaterThan(-1);
    expect(args.slice(args.indexOf('--'))).toEqual([
      '--',
      '/usr/bin/prlimit',
      '--nproc=100:100',
      '--fsize=2048:2048',
      '--data=4096:4096',
      '--core=0:0',
      '--',
      '/opt/node/bin/node',
      '-e',
      '1',
    ]);
  });
});

describe("a learner's process (strict grading)", () => {
  const learner: BwrapPlan = {
    ...plan,
    readOnly: [],
    readOnlyAt: { '/repo/node_modules/node/bin/node': '/opt/node/bin/node' },
    nodeModules: {},
    privateWorkspace: { bytes: 16 << 20, entries: ['src', 'strict', 'package.json'] },
  };
  const args = bwrapArgs(learner);

  test('its workspace is a tmpfs of the given size, with the files the grader wrote bound read-only; nothing of the host is writable', () => {
    expect(at(args, '--size', String(16 << 20), '--tmpfs', '/tmp/g/work')).toBeGreaterThan(at(args, '--tmpfs', '/tmp'));
    for (const entry of ['src', 'strict', 'package.json']) {
      expect(at(args, '--ro-bind', `/tmp/g/work/${entry}`, `/tmp/g/work/${entry}`)).toBeGreaterThan(at(args, '--tmpfs', '/tmp/g/work'));
    }
    expect(args).not.toContain('--bind');
    expect(at(args, '--ro-bind', '/repo/node_modules/node/bin/node', '/opt/node/bin/node')).toBeGreaterThan(-1);
  });

  test('the options and the command split at the command: the options go through a pipe, not the command line', () => {
    const { options, command } = bwrapCommand(learner);
    expect([...options, ...command]).toEqual(args);
    expect(command[0]).toBe('--');
    expect(command[1]).toBe('/usr/bin/prlimit');
    expect(command.join(' ')).not.toContain('/tmp/g/work');
    expect(options).toContain('--ro-bind');
  });
});
