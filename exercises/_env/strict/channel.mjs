// One end of the strict grading channel: newline-delimited JSON over a Unix socket, read by an
// I/O thread. `send` is asynchronous; `waitUntil` blocks the calling thread (Atomics.wait) while
// it handles every message that arrives, so synchronous functions stay synchronous across it.
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
  const sab = new SharedArrayBuffer(4);
  const flag = new Int32Array(sab);
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
    send(msg) {
      port1.postMessage(JSON.stringify(msg));
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
