// The strict grading channel over a real socket: messages keep their order and arrive whole, whether
// the calling thread writes them itself or, when the socket is full, the I/O thread finishes them.
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { openChannel } from '../../../exercises/_env/strict/channel.mjs';

async function until(ready: () => boolean, what: string, ms = 10_000): Promise<void> {
  const start = Date.now();
  while (!ready()) {
    if (Date.now() - start > ms) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** The other end, in a process of its own (so it drains the socket while this thread writes): it prints each line's `n`. */
const PEER = `
const net = require('node:net');
const server = net.createServer((s) => {
  let buf = '';
  s.setEncoding('utf8');
  s.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\\n'); i >= 0; i = buf.indexOf('\\n')) {
      const m = JSON.parse(buf.slice(0, i));
      process.stdout.write(m.n + ':' + (m.big ? m.big.length : 0) + '\\n');
      buf = buf.slice(i + 1);
    }
  });
  s.write('{"t":"a"}\\nnot json\\n{"t":"b"}\\n');
});
server.listen(process.argv[1], () => process.stdout.write('ready\\n'));
`;

test('messages keep their order and arrive whole, the large ones finished by the I/O thread', { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'channel-'));
  const path = join(dir, 'tests.sock');
  const peer = spawn(process.execPath, ['-e', PEER, path], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  peer.stdout.setEncoding('utf8');
  peer.stdout.on('data', (d: string) => (out += d));
  const lines = () => out.split('\n').filter((l) => /^\d+:/.test(l));
  const received: unknown[] = [];
  let channel: ReturnType<typeof openChannel> | undefined;
  try {
    await until(() => out.startsWith('ready'), 'the peer to listen');
    channel = openChannel(path, (msg) => received.push(msg), { keepAlive: true });
    // Before the connection is made the descriptor is unknown: this one goes through the I/O thread.
    channel.send({ n: 0 });
    await until(() => lines().length === 1, 'the first message');
    // 4 MB does not fit in the socket at once: the rest goes to the I/O thread while the peer drains
    // the socket, and the small messages right behind it must wait for it.
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
    // And the other way: lines from the peer arrive parsed, in order; a line that is not JSON is flagged.
    await until(() => received.length === 3, 'three messages from the peer');
    expect(received).toEqual([{ t: 'a' }, { t: 'bad', why: 'a message that is not JSON' }, { t: 'b' }]);
  } finally {
    channel?.close();
    peer.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
