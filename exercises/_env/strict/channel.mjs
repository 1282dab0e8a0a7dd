// @ts-check
// One end of the strict grading channel: newline-delimited JSON over a Unix socket, read by the
// calling thread alone. While the event loop runs, libuv reads the socket; while a synchronous call
// waits (`waitUntil`), the socket is switched to blocking mode and read right here, so synchronous
// functions stay synchronous across the channel and the peer's answer wakes this thread once. (No
// I/O thread reads for the main thread: that would cost two wake-ups per message and a thread start
// per process.)
import { readSync, writeSync } from 'node:fs';
import net from 'node:net';
import { StringDecoder } from 'node:string_decoder';
// Node's own, not the global: a suite's fake timers (or the learner's forwarded ones) replace that.
import { setImmediate } from 'node:timers';

export const MAX_LINE = 16 * 1024 * 1024;
const CHUNK = 64 * 1024;

/**
 * Node's handle of a connected socket: not in its types, but what blocking mode needs.
 * @typedef {{ fd: number, setBlocking(on: boolean): void }} SocketHandle
 */

/**
 * What the channel itself has to say, in order with the messages: the connection ended (`peer`: the
 * other side ended it, not this one over a message too large), or a line was not a JSON object.
 * Handed to their own callbacks, never as a message: the other side writes the messages, and a line
 * of its own saying `{"t":"closed"}` is only a message (which the guarded end refuses).
 * @typedef {{
 *   message(msg: import('./wire.mjs').Untrusted): void,
 *   closed(why: string, peer: boolean): void,
 *   bad(why: string): void,
 * }} ChannelHandlers
 */

/**
 * @param {string | number} socket a path to connect to, or a descriptor already connected
 * @param {ChannelHandlers} on message: every message, in order, parsed (nothing checked yet)
 * @param {{ keepAlive: boolean }} opts keepAlive: the channel keeps the process running
 */
export function openChannel(socket, on, opts) {
  const chunk = Buffer.allocUnsafe(CHUNK);
  /**
   * Lines received and not handed over yet, in order, with the channel's own news among them: a
   * line is a string, the news an object made here, which no bytes of the other side can become.
   * @type {Array<string | { closed: string, peer: boolean } | { bad: string }>}
   */
  const queue = [];
  let partial = '';
  let ended = false;
  let scheduled = false;

  // One decoder for both ways of reading: a character split between two reads is joined, not garbled.
  const decoder = new StringDecoder('utf8');
  /** The other side's bytes, cut into lines (each read searched once, however long the line). */
  const take = (/** @type {Buffer} */ bytes) => {
    const text = decoder.write(bytes);
    let from = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', from)) {
      queue.push(from === 0 ? partial + text.slice(0, at) : text.slice(from, at));
      from = at + 1;
    }
    partial = from === 0 ? partial + text : text.slice(from);
    if (partial.length > MAX_LINE) {
      partial = '';
      queue.push({ bad: 'a message over 16 MB' });
      end('a message over 16 MB', false);
    }
  };
  /** The channel is over; `peer`: the other side ended it (not this one, over a message too large). */
  const end = (/** @type {string} */ why, /** @type {boolean} */ peer) => {
    if (ended) return;
    ended = true;
    queue.push({ closed: why, peer });
    sock.destroy();
  };
  const handle = (/** @type {(typeof queue)[number]} */ entry) => {
    if (typeof entry !== 'string') {
      if ('closed' in entry) on.closed(entry.closed, entry.peer);
      else on.bad(entry.bad);
      return;
    }
    let msg;
    try {
      msg = JSON.parse(entry);
    } catch {
      return on.bad('a message that is not JSON');
    }
    if (msg && typeof msg === 'object' && !Array.isArray(msg)) on.message(msg);
    else on.bad('a message that is not an object');
  };
  // From the event loop, one message per macrotask: the promise jobs each one starts run before the
  // next message is handled, as they would after separate events.
  const deliverOne = () => {
    scheduled = false;
    const line = queue.shift();
    if (line === undefined) return;
    if (queue.length > 0) schedule();
    handle(line);
  };
  // Never unref'd, even when the channel must not keep the process running: an unref'd immediate
  // does not stop the event loop from sleeping until some other event, and the message would wait.
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(deliverOne);
  };

  const onread = {
    buffer: chunk,
    /** @param {number} nread @param {Buffer} buf @returns {any} (Node's types ask for a boolean; Node ignores it) */
    callback(nread, buf) {
      take(buf.subarray(0, nread));
      if (!scheduled) deliverOne();
    },
  };
  // A Unix socket connects at once: its descriptor can be written to before the 'connect' event.
  const sock = typeof socket === 'number' ? new net.Socket({ fd: socket, readable: true, writable: true, onread }) : net.connect({ path: socket, onread });
  const lost = (/** @type {string} */ why) => {
    end(why, true);
    schedule();
  };
  sock.on('error', (e) => lost(String(e?.message ?? e)));
  sock.on('close', () => lost('the other side closed the channel'));
  if (!opts.keepAlive) sock.unref();
  const sockHandle = () => /** @type {{ _handle?: SocketHandle }} */ (/** @type {unknown} */ (sock))._handle;
  const fd = () => sockHandle()?.fd ?? -1;
  /** Runs `fn` with the socket in blocking mode, then puts it back for libuv (which must never block). */
  /** @template T @param {() => T} fn @returns {T} */
  const blocking = (fn) => {
    /** @type {SocketHandle} */ (sockHandle()).setBlocking(true);
    try {
      return fn();
    } finally {
      if (!ended) /** @type {SocketHandle} */ (sockHandle()).setBlocking(false);
    }
  };

  return {
    /**
     * Written at once from this thread. What the socket does not take at once (it is full) is
     * written in blocking mode: this thread waits until the other side has read enough.
     * @param {object} msg
     */
    send(msg) {
      if (ended) return;
      const bytes = Buffer.from(`${JSON.stringify(msg)}\n`);
      try {
        let off = 0;
        try {
          off = writeSync(fd(), bytes);
        } catch (error) {
          if (/** @type {NodeJS.ErrnoException} */ (error)?.code !== 'EAGAIN') throw error;
        }
        if (off < bytes.length)
          blocking(() => {
            while (off < bytes.length) off += writeSync(fd(), bytes, off);
          });
      } catch (error) {
        lost(String(/** @type {Error} */ (error)?.message ?? error));
      }
    },
    /**
     * Handles incoming messages synchronously, in order, until `done()` is true or the channel has
     * ended. It waits as long as it takes: a peer that never answers is the grader's watchdog's to stop.
     * @param {() => boolean} done
     */
    waitUntil(done) {
      try {
        while (!done()) {
          const line = queue.shift();
          if (line !== undefined) {
            handle(line);
            continue;
          }
          if (ended) return;
          let n = 0;
          try {
            n = blocking(() => readSync(fd(), chunk, 0, CHUNK, null));
          } catch (error) {
            end(String(/** @type {Error} */ (error)?.message ?? error), true);
            continue;
          }
          if (n === 0) end('the other side closed the channel', true);
          else take(chunk.subarray(0, n));
        }
      } finally {
        // What came after the answer is handled from the event loop, as if it had arrived then.
        if (queue.length > 0) schedule();
      }
    },
    /** Keep the process running while the channel waits (only a module load does: see client.mjs). */
    ref() {
      sock.ref();
    },
    unref() {
      if (!opts.keepAlive) sock.unref();
    },
    /** Ends the channel from this side: nothing more is sent, and nothing already received is handed over. */
    close() {
      ended = true;
      queue.length = 0;
      sock.destroy();
    },
  };
}

/** @typedef {ReturnType<typeof openChannel>} Channel */
