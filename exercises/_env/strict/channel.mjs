// One end of the strict grading channel: newline-delimited JSON over a Unix socket, read by an
// I/O thread. `send` is asynchronous; `waitUntil` blocks the calling thread (Atomics.wait) while
// it handles every message that arrives, so synchronous functions stay synchronous across it.
import { writeSync } from 'node:fs';
import { MessageChannel, Worker, receiveMessageOnPort } from 'node:worker_threads';

export const MAX_LINE = 16 * 1024 * 1024;
// Kept before anything can replace the globals (the learner's process forwards Date.now).
const now = Date.now;

/**
 * @param {string | number} socket a path to connect to, or a descriptor already connected
 * @param {(msg: any) => void} onMessage every message, in order, parsed
 * @param {{ keepAlive: boolean }} opts keepAlive: the channel keeps the process running
 */
export function openChannel(socket, onMessage, opts) {
  // [0]: bumped by the I/O thread when a message arrives; [1]: the socket's descriptor + 1, once the
  // I/O thread knows it (0: not yet); [2]: how many writes handed to the I/O thread have reached the socket.
  const sab = new SharedArrayBuffer(12);
  const flag = new Int32Array(sab);
  let handedToIo = 0;
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./channel-io.mjs', import.meta.url), {
    workerData: { socket, sab, port: port2, maxLine: MAX_LINE },
    transferList: [port2],
  });
  const handle = (line) => {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      msg = { t: 'bad', why: 'a message that is not JSON' };
    }
    onMessage(msg && typeof msg === 'object' ? msg : { t: 'bad', why: 'a message that is not an object' });
  };
  port1.on('message', handle);
  if (!opts.keepAlive) {
    port1.unref();
    worker.unref();
  }
  return {
    /**
     * Written straight to the socket from this thread when it can be (one wake-up of the I/O thread
     * fewer per message), otherwise through the I/O thread. Straight only once every earlier write
     * through the I/O thread has reached the socket, so messages keep their order; what the socket
     * does not take at once (it is full) goes to the I/O thread to finish.
     */
    send(msg) {
      const text = JSON.stringify(msg);
      const fd = Atomics.load(flag, 1) - 1;
      if (fd >= 0 && Atomics.load(flag, 2) === handedToIo) {
        const bytes = Buffer.from(`${text}\n`);
        let written = 0;
        try {
          written = writeSync(fd, bytes);
        } catch {
          // full (EAGAIN) or closed: the I/O thread writes it, or reports the channel closed
        }
        if (written === bytes.length) return;
        handedToIo++;
        port1.postMessage(bytes.subarray(written));
        return;
      }
      handedToIo++;
      port1.postMessage(text);
    },
    /** Handles incoming messages synchronously until `done()` is true (or `limitMs` passed: throws). */
    waitUntil(done, limitMs) {
      const until = now() + limitMs;
      while (!done()) {
        const seen = Atomics.load(flag, 0);
        const got = receiveMessageOnPort(port1);
        if (got) {
          handle(got.message);
          continue;
        }
        const left = until - now();
        if (left <= 0) throw new Error(`no answer over the grading channel within ${limitMs} ms`);
        Atomics.wait(flag, 0, seen, Math.min(left, 1000));
      }
    },
    /** Keep the process running while the channel waits (only a module load does: see client.mjs). */
    ref() {
      port1.ref();
      worker.ref();
    },
    unref() {
      if (opts.keepAlive) return;
      port1.unref();
      worker.unref();
    },
    close() {
      port1.close();
      void worker.terminate();
    },
  };
}
