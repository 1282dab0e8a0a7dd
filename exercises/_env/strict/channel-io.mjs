// The I/O thread of one end of the strict grading channel (see channel.mjs). It owns the socket,
// so the main thread can block (Atomics.wait) on a synchronous call while replies keep arriving.
import net from 'node:net';
import { workerData } from 'node:worker_threads';

// `socket`: a path to connect to (the tests' side), or the descriptor the grader handed over (the learner's).
const { socket, sab, port, maxLine } = workerData;
const flag = new Int32Array(sab);
const wake = () => {
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
};
const deliver = (line) => {
  port.postMessage(line);
  wake();
};

const sock = typeof socket === 'number' ? new net.Socket({ fd: socket, readable: true, writable: true }) : net.connect(socket);
sock.setEncoding('utf8');
let buf = '';
sock.on('data', (chunk) => {
  buf += chunk;
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    deliver(buf.slice(0, i));
    buf = buf.slice(i + 1);
  }
  if (buf.length > maxLine) {
    cut = true;
    deliver(JSON.stringify({ t: 'bad', why: 'a message over 16 MB' }));
    sock.destroy();
  }
});
// `peer`: the other side ended the channel (not this one, over a message too large).
let cut = false;
let ended = false;
const closed = (why) => {
  if (ended) return;
  ended = true;
  deliver(JSON.stringify({ t: 'closed', why, ...(cut ? {} : { peer: true }) }));
  port.close();
};
sock.on('error', (e) => closed(String(e?.message ?? e)));
sock.on('close', () => closed('the other side closed the channel'));
// A line (a message of the main thread) or the rest of one it could not write itself (bytes).
const written = () => Atomics.add(flag, 2, 1);
port.on('message', (m) => (typeof m === 'string' ? sock.write(`${m}\n`, written) : sock.write(m, written)));
// The main thread writes straight to the socket once it knows the descriptor (see channel.mjs).
const publish = () => {
  const fd = sock._handle?.fd;
  if (Number.isInteger(fd) && fd >= 0) Atomics.store(flag, 1, fd + 1);
};
if (typeof socket === 'number') publish();
else sock.once('connect', publish);
