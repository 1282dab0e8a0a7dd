// The I/O thread of one end of the strict grading channel (see channel.mjs). It owns the socket,
// so the main thread can block (Atomics.wait) on a synchronous call while replies keep arriving.
import net from 'node:net';
import { workerData } from 'node:worker_threads';

const { socketPath, sab, port, maxLine } = workerData;
const flag = new Int32Array(sab);
const wake = () => {
  Atomics.add(flag, 0, 1);
  Atomics.notify(flag, 0);
};
const deliver = (line) => {
  port.postMessage(line);
  wake();
};

const sock = net.connect(socketPath);
sock.setEncoding('utf8');
let buf = '';
sock.on('data', (chunk) => {
  buf += chunk;
  for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
    deliver(buf.slice(0, i));
    buf = buf.slice(i + 1);
  }
  if (buf.length > maxLine) {
    deliver(JSON.stringify({ t: 'closed', why: 'a message over the size limit' }));
    sock.destroy();
  }
});
const closed = (why) => {
  deliver(JSON.stringify({ t: 'closed', why }));
  port.close();
};
sock.on('error', (e) => closed(String(e?.message ?? e)));
sock.on('close', () => closed('the other side closed the channel'));
port.on('message', (line) => sock.write(line + '\n'));
