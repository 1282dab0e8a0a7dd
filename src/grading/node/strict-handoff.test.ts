// The hand-off between the two sandboxes, with plain child processes standing in for the learner's.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startHandoff, TESTS_SOCKET, type StrictHandoff } from './strict-handoff.ts';

const dirs: string[] = [];
const children: ChildProcess[] = [];
let handoff: StrictHandoff | undefined;
afterEach(async () => {
  await handoff?.close();
  handoff = undefined;
  for (const c of children.splice(0)) c.kill('SIGKILL');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'handoff-'));
  dirs.push(d);
  return d;
};
const connect = (path: string) =>
  new Promise<net.Socket>((resolve, reject) =>
    net
      .connect(path)
      .once('connect', function (this: net.Socket) {
        resolve(this);
      })
      .once('error', reject),
  );
const firstData = (s: net.Socket) => new Promise<string>((resolve) => s.once('data', (d) => resolve(d.toString())));
const closed = (s: net.Socket) => new Promise<void>((resolve) => s.once('close', () => resolve()));

/** A learner's process in miniature: answers each line on fd 3 with its own name, or exits after the first. */
function learner(name: string, socket: net.Socket, exitAfterFirst = false): void {
  const script = `
    const s = new (require('node:net').Socket)({ fd: 3, readable: true, writable: true });
    s.on('data', (d) => { s.write(${JSON.stringify(name)} + ': ' + d); if (${exitAfterFirst}) s.end(() => process.exit(0)); });`;
  children.push(spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', socket] }));
}

describe('the strict grading hand-off', () => {
  it('hands each connection of the tests, unread, to a process started for it; the bytes go straight between them', async () => {
    const root = tmp();
    let n = 0;
    handoff = await startHandoff(root, (socket) => learner(`learner ${n++}`, socket));
    const a = await connect(join(root, TESTS_SOCKET));
    // Sent at once: it waits in the socket until the learner's process reads it (the grader never does).
    a.write('hello\n');
    expect(await firstData(a)).toBe('learner 0: hello\n');
    const b = await connect(join(root, TESTS_SOCKET));
    b.write('again\n');
    expect(await firstData(b)).toBe('learner 1: again\n');
    a.destroy();
    b.destroy();
  });

  it('keeps no copy of a connection: when the learner process ends it, the tests see it end', async () => {
    const root = tmp();
    handoff = await startHandoff(root, (socket) => learner('once', socket, true));
    const a = await connect(join(root, TESTS_SOCKET));
    a.write('x\n');
    expect(await firstData(a)).toBe('once: x\n');
    await closed(a);
  });

  it('stops accepting connections once closed', async () => {
    const root = tmp();
    let started = 0;
    handoff = await startHandoff(root, (socket) => {
      started++;
      learner('late', socket);
    });
    await handoff.close();
    handoff = undefined;
    await expect(connect(join(root, TESTS_SOCKET))).rejects.toThrow();
    expect(started).toBe(0);
  });
});
