// The relay between the two sandboxes, with plain sockets standing in for the two processes.
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startRelay, TESTS_SOCKET, type StrictRelay } from './strict-relay.ts';

const dirs: string[] = [];
let relay: StrictRelay | undefined;
afterEach(async () => {
  await relay?.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'relay-'));
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

describe('the strict grading relay', () => {
  it('pairs each connection of the tests with a learner process it starts, and passes bytes both ways', async () => {
    const testsRoot = tmp();
    const learnerRoot = tmp();
    const started: string[] = [];
    const learners: net.Socket[] = [];
    relay = await startRelay(testsRoot, learnerRoot, (socket) => {
      started.push(socket);
      connect(join(learnerRoot, socket)).then(
        (s) => {
          learners.push(s);
          s.on('data', (d) => s.write(`echo ${socket}: ${d.toString()}`));
        },
        () => undefined, // the next learner, started when the relay closed
      );
    });
    expect(started).toEqual(['.channel/learner-0.sock']);
    const a = await connect(join(testsRoot, TESTS_SOCKET));
    a.write('hello\n');
    expect(await firstData(a)).toBe('echo .channel/learner-0.sock: hello\n');
    const b = await connect(join(testsRoot, TESTS_SOCKET));
    b.write('again\n');
    expect(await firstData(b)).toBe('echo .channel/learner-1.sock: again\n');
    expect(relay.violations).toEqual([]);
    expect(relay.learnerLeftFirst).toBe(false);
    a.destroy();
    b.destroy();
  });

  it('starts a learner process ahead of the next connection only when asked (a suite with child processes)', async () => {
    for (const spare of [false, true]) {
      const testsRoot = tmp();
      const started: string[] = [];
      relay = await startRelay(testsRoot, tmp(), (socket) => void started.push(socket), { spare });
      const a = await connect(join(testsRoot, TESTS_SOCKET));
      await new Promise((r) => setTimeout(r, 50));
      expect(started, `spare: ${spare}`).toEqual(spare ? ['.channel/learner-0.sock', '.channel/learner-1.sock'] : ['.channel/learner-0.sock']);
      a.destroy();
      await relay.close();
      relay = undefined;
    }
  });

  it('a second connection to a learner socket, or a line over 16 MB, is a violation that cuts the channel', async () => {
    const testsRoot = tmp();
    const learnerRoot = tmp();
    let learner: net.Socket | undefined;
    relay = await startRelay(
      testsRoot,
      learnerRoot,
      (socket) =>
        void connect(join(learnerRoot, socket)).then(
          (s) => (learner ??= s),
          () => undefined,
        ),
    );
    const tests = await connect(join(testsRoot, TESTS_SOCKET));
    tests.resume(); // read what arrives, as the tests' I/O thread does
    await new Promise((r) => setTimeout(r, 50));
    const intruder = await connect(join(learnerRoot, '.channel/learner-0.sock'));
    await closed(intruder);
    expect(relay.violations).toEqual(['a second connection to the grading channel']);
    learner!.write('x'.repeat(17 * 1024 * 1024));
    await closed(tests);
    expect(relay.violations).toContain("a message over 16 MB from the learner's process");
    expect(relay.learnerLeftFirst).toBe(true);
  });
});
