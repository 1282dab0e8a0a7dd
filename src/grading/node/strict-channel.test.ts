// The strict grading channel over a real socket, with the other end in a process of its own:
// messages keep their order and arrive whole (large ones too, written while the peer drains the
// socket); a synchronous wait reads the answer itself and leaves what came after it to the event
// loop; a peer that leaves ends the channel, whether this side waits or idles.
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, expect, test } from 'vitest';
import { openChannel } from '../../../exercises/_env/strict/channel.mjs';

const CHANNEL = fileURLToPath(new URL('../../../exercises/_env/strict/channel.mjs', import.meta.url));

async function until(ready: () => boolean, what: string, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!ready()) {
    if (Date.now() - start > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/**
 * The other end: it prints each line's `n` (and the length of `big`), greets with three lines (one
 * not JSON), answers { t: 'call' } with the reply and two more messages in one write, { t: 'split' }
 * with a line in two writes cut inside a character, and closes the connection on { t: 'bye' }.
 */
const PEER = `
const net = require('node:net');
const server = net.createServer((s) => {
  let buf = '';
  s.setEncoding('utf8');
  s.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
      const m = JSON.parse(buf.slice(0, i));
      buf = buf.slice(i + 1);
      if (m.t === 'call') s.write(JSON.stringify({ t: 'reply', call: m.call }) + '\\n{"t":"after","k":1}\\n{"t":"after","k":2}\\n');
      else if (m.t === 'bye') s.destroy();
      else if (m.t === 'split') {
        // a line in two writes, cut inside the bytes of 'ế'
        const bytes = Buffer.from(JSON.stringify({ t: 'vi', s: 'Hết hạn ' + m.n }) + '\\n');
        const cut = bytes.indexOf(Buffer.from('ế')) + 1;
        s.write(bytes.subarray(0, cut));
        setTimeout(() => s.write(bytes.subarray(cut)), 50);
      }
      else process.stdout.write(m.n + ':' + (m.big ? m.big.length : 0) + '\\n');
    }
  });
  s.write('{"t":"a"}\\nnot json\\n{"t":"b"}\\n');
});
server.listen(process.argv[1], () => process.stdout.write('ready\\n'));
`;

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function startPeer(onMessage?: (msg: Record<string, unknown>) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'channel-'));
  const path = join(dir, 'tests.sock');
  const peer = spawn(process.execPath, ['-e', PEER, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => {
    peer.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });
  let out = '';
  peer.stdout.setEncoding('utf8');
  peer.stdout.on('data', (d: string) => (out += d));
  await until(() => out.startsWith('ready'), 'the peer to listen');
  /** The messages and, in order among them, the channel's own news (as `channel`: 'closed' or 'bad'). */
  const received: Array<Record<string, unknown>> = [];
  const channel = openChannel(
    path,
    {
      message: (msg) => {
        received.push(msg);
        onMessage?.(msg);
      },
      closed: (why, peer) => received.push({ channel: 'closed', why, peer }),
      bad: (why) => received.push({ channel: 'bad', why }),
    },
    { keepAlive: true },
  );
  cleanups.push(() => channel.close());
  return { path, channel, received, lines: () => out.split('\n').filter((l) => /^\d+:/.test(l)) };
}

test('messages keep their order and arrive whole, large ones written while the peer drains the socket', { timeout: 60_000 }, async () => {
  const { channel, received, lines } = await startPeer();
  // Written at once: a Unix socket is connected before its 'connect' event.
  channel.send({ n: 0 });
  await until(() => lines().length === 1, 'the first message');
  // 4 MB does not fit in the socket at once: the rest is written as the peer reads, and the small
  // messages right behind it come after it.
  const big = 'x'.repeat(4 * 1024 * 1024);
  let n = 0;
  for (let round = 0; round < 5; round++) {
    channel.send({ n: ++n, big });
    for (let k = 0; k < 20; k++) {
      channel.send({ n: ++n });
      await new Promise((r) => setImmediate(r));
    }
  }
  await until(() => lines().length === n + 1, `all ${n + 1} messages`);
  expect(lines().map((l) => Number(l.split(':')[0]))).toEqual(Array.from({ length: n + 1 }, (_, i) => i));
  expect(
    lines()
      .filter((l) => !l.endsWith(':0'))
      .map((l) => Number(l.split(':')[1])),
  ).toEqual(Array(5).fill(big.length));
  // And the other way: lines from the peer arrive parsed, in order; a line that is not JSON is the
  // channel's own news, handed over apart from the messages.
  await until(() => received.length === 3, 'three messages from the peer');
  expect(received).toEqual([{ t: 'a' }, { channel: 'bad', why: 'a message that is not JSON' }, { t: 'b' }]);
});

test('a synchronous wait reads its answer itself; what came after it is handled from the event loop, one message per turn', async () => {
  const seen: string[] = [];
  const { channel, received } = await startPeer((msg) => {
    if (msg.t !== 'after') return;
    seen.push(`message ${String(msg.k)}`);
    queueMicrotask(() => seen.push(`job of message ${String(msg.k)}`));
  });
  await until(() => received.length === 3, 'the greeting');
  // A suite's fake timers replace the global setImmediate: the channel must not depend on it.
  const realImmediate = globalThis.setImmediate;
  globalThis.setImmediate = (() => undefined) as unknown as typeof setImmediate;
  try {
    channel.send({ t: 'call', call: 7 });
    channel.waitUntil(() => received.some((m) => m.t === 'reply'));
  } finally {
    globalThis.setImmediate = realImmediate;
  }
  // The wait ended with the answer: the two messages written with it are not handled yet.
  expect(received.slice(3)).toEqual([{ t: 'reply', call: 7 }]);
  const tracked = received.length;
  await until(() => received.length === tracked + 2, 'the messages after the answer');
  expect(received.slice(3)).toEqual([
    { t: 'reply', call: 7 },
    { t: 'after', k: 1 },
    { t: 'after', k: 2 },
  ]);
  // Each came in its own turn of the event loop: a promise job queued by the first ran before the second.
  expect(seen).toEqual(['message 1', 'job of message 1', 'message 2', 'job of message 2']);
});

test('a channel that does not keep its process running still hands over what came after an answer at once', async () => {
  const { path } = await startPeer();
  // In a process of its own, where only a 2 s timer would wake the event loop (a test worker has
  // other traffic, which would hide a message left waiting for that timer).
  const client = `
    const { openChannel } = await import(${JSON.stringify(pathToFileURL(CHANNEL).href)});
    let replied = false;
    const after = [];
    const channel = openChannel(process.argv[1], { message: (msg) => {
      if (msg.t === 'reply') replied = true;
      if (msg.t === 'after') after.push(performance.now());
    }, closed() {}, bad() {} }, { keepAlive: false });
    channel.send({ t: 'call', call: 1 });
    channel.waitUntil(() => replied);
    const started = performance.now();
    setTimeout(() => {
      process.stdout.write(JSON.stringify(after.map((t) => Math.round(t - started))));
      channel.close();
    }, 2000);
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', client, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (d: string) => (out += d));
  await new Promise((resolve) => child.once('exit', resolve));
  const delays = JSON.parse(out) as number[];
  expect(delays).toHaveLength(2);
  for (const ms of delays) expect(ms).toBeLessThan(500);
});

test('a character cut between two reads arrives whole, read from the event loop or by a waiting call', async () => {
  const { channel, received } = await startPeer();
  await until(() => received.length === 3, 'the greeting');
  channel.send({ t: 'split', n: 1 });
  await until(() => received.length === 4, 'the line in two parts');
  channel.send({ t: 'split', n: 2 });
  channel.waitUntil(() => received.length === 5);
  expect(received.slice(3)).toEqual([
    { t: 'vi', s: 'Hết hạn 1' },
    { t: 'vi', s: 'Hết hạn 2' },
  ]);
});

test("a peer that leaves ends the channel: a waiting call returns, and the end is reported once, as the peer's", async () => {
  const { channel, received } = await startPeer();
  await until(() => received.length === 3, 'the greeting');
  channel.send({ t: 'bye' });
  // Nothing will answer: the wait ends when the socket does, with the end handed to `closed`.
  channel.waitUntil(() => false);
  const closed = received.filter((m) => m['channel'] === 'closed');
  expect(closed).toEqual([{ channel: 'closed', why: 'the other side closed the channel', peer: true }]);
  // Later writes go nowhere and are not an error; the end is not reported again.
  channel.send({ n: 1 });
  await new Promise((r) => setTimeout(r, 50));
  expect(received.filter((m) => m['channel'] === 'closed')).toHaveLength(1);
});

test('a peer that leaves while this side idles ends the channel from the event loop', async () => {
  const { channel, received } = await startPeer();
  await until(() => received.length === 3, 'the greeting');
  channel.send({ t: 'bye' });
  await until(() => received.some((m) => m['channel'] === 'closed'), 'the end of the channel');
  expect(received.filter((m) => m['channel'] === 'closed')).toEqual([{ channel: 'closed', why: 'the other side closed the channel', peer: true }]);
});
