// @ts-check
// HTTP servers across the strict grading membrane. A learner's http.Server crosses to the tests as
// a real http.Server made in the tests' process (so `instanceof http.Server`, listen, address,
// close and the suite's own 'request' listeners work as in one process). Each request it receives
// is replayed on a connection of its own into the learner's real server: the bytes cross the
// channel both ways, and Node parses them at each end, so the learner's handler gets a real
// IncomingMessage and ServerResponse. A hang-up crosses too: when either end's connection closes
// before the answer is finished, the other end's closes. No network is shared and the learner's
// server never listens anywhere. The learner's own connections to loopback (node:http or node:net
// calling another service: the URLs it is given are the tests' stand-ins) are dialled from the
// tests' process, as if made there, which is where they would go in one process.
//
// Messages (no answer expected): hc { conn, srv } opens connection `conn` (> 0) to server `srv`
// (tests to learner); hd { conn, host, port } dials a loopback port from the tests' process (learner
// to tests, conn < 0); hb { conn, b64 } carries bytes; he { conn } ends that direction; hx { conn,
// code? } drops the connection (code: why a dial failed, ECONNREFUSED…).
import { Duplex } from 'node:stream';

/**
 * @typedef {{ t: 'hc', conn: number, srv: number }
 *   | { t: 'hd', conn: number, host: string, port: number }
 *   | { t: 'hb', conn: number, b64: string }
 *   | { t: 'he', conn: number }
 *   | { t: 'hx', conn: number, code?: string }
 * } BridgeMessage
 */
/** @typedef {import('./wire.mjs').Untrusted} Untrusted */
/** @typedef {Duplex & { remoteAddress: string, remotePort: number }} Half */

// Loaded when first needed: node:http alone adds to the start-up of every process (part of each
// strict grade, docs/benchmarks.md#benchgrade-class), and only a suite with servers needs it (where
// the learner's code has loaded it already).
const http = () => process.getBuiltinModule('node:http');
const net = () => process.getBuiltinModule('node:net');

const KINDS = new Set(['hc', 'hd', 'hb', 'he', 'hx']);
/** The hosts a dial may name: this machine's loopback, as the suites' URLs do. */
export const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
/** @param {Untrusted} msg */
export const isBridgeMessage = (msg) => KINDS.has(msg.t);

/**
 * An http.Server (looked at without loading node:http for the values that cannot be one).
 * @param {any} v @returns {v is import('node:http').Server}
 */
export const isServer = (v) =>
  typeof v === 'object' && v !== null && typeof v.listen === 'function' && typeof v.closeAllConnections === 'function' && v instanceof http().Server;

/**
 * @param {{
 *   send(msg: BridgeMessage): void,
 *   guard: boolean,
 *   violation(why: string): Error,
 *   lookup(id: number): unknown,
 * }} o guard: this is the tests' end (it opens connections and trusts nothing it receives);
 *   lookup: the object this end handed out as `id` (the learner's server)
 */
export function createHttpBridge(o) {
  /** @type {Map<number, Half>} connection id -> this end's half of it */
  const conns = new Map();
  /** The tests' end numbers the connections it opens: an id at or above this was never opened. */
  let nextConn = 1;
  /** The learner's end numbers its dials below zero; the tests' end remembers the lowest it has seen. */
  let lastDial = 0;

  /** @param {number} id @returns {Half} */
  function half(id) {
    const d = new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        try {
          o.send({ t: 'hb', conn: id, b64: chunk.toString('base64') });
          done();
        } catch (error) {
          done(/** @type {Error} */ (error));
        }
      },
      final(done) {
        send({ t: 'he', conn: id });
        done();
      },
      destroy(error, done) {
        const code = /** @type {NodeJS.ErrnoException | null} */ (error)?.code;
        if (conns.delete(id)) send({ t: 'hx', conn: id, ...(code ? { code: String(code) } : {}) });
        done(error);
      },
    });
    // What Node's HTTP server reads of a socket beyond the stream itself.
    Object.assign(d, {
      remoteAddress: '127.0.0.1',
      remotePort: 0,
      remoteFamily: 'IPv4',
      localAddress: '127.0.0.1',
      localPort: 0,
      setTimeout: () => d,
      setNoDelay: () => d,
      setKeepAlive: () => d,
      ref: () => d,
      unref: () => d,
      address: () => ({ address: '127.0.0.1', family: 'IPv4', port: 0 }),
    });
    const socket = /** @type {Half} */ (d);
    conns.set(id, socket);
    return socket;
  }

  /** A message the channel may no longer carry (closed) is dropped: the other end is gone. @param {BridgeMessage} msg */
  function send(msg) {
    try {
      o.send(msg);
    } catch {
      // the connection is being torn down anyway
    }
  }

  /** The tests' end: a server in this process standing in for the learner's server `srv`. @param {number} srv */
  function standIn(srv) {
    return http().createServer((req, res) => {
      const id = nextConn++;
      const socket = half(id);
      send({ t: 'hc', conn: id, srv });
      const toLearner = http().request({ method: req.method, path: req.url, headers: req.rawHeaders, setHost: false, createConnection: () => socket });
      toLearner.on('response', (answer) => {
        try {
          res.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.rawHeaders);
        } catch {
          // a head this end will not send (a status out of range): to the caller, a dropped connection
          return void res.destroy();
        }
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      });
      // The learner's server hung up (or answered something that is not HTTP): so does this one.
      toLearner.on('error', () => res.destroy());
      req.pipe(toLearner);
      // Finished or abandoned by the caller: the learner's side of this request closes too.
      res.on('close', () => {
        toLearner.destroy();
        socket.destroy();
      });
    });
  }

  /** The learner's end: a connection the tests opened, handed to the learner's server. @param {Untrusted} msg */
  function accept(msg) {
    const server = o.lookup(msg.srv);
    if (!isServer(server) || conns.has(msg.conn)) return;
    server.emit('connection', half(msg.conn));
  }

  /** The tests' end: the learner's connection `msg.conn`, made from here to a loopback port. @param {Untrusted} msg */
  function dialHere(msg) {
    const socket = half(msg.conn);
    const out = net().connect({ host: msg.host, port: msg.port });
    socket.pipe(out);
    out.pipe(socket);
    // The error goes to the learner's end with the drop (its code), where the learner's code hears of it.
    socket.on('error', () => {});
    out.on('error', (error) => socket.destroy(error));
    out.on('close', () => socket.destroy());
    socket.on('close', () => out.destroy());
  }

  /**
   * The learner's end: a connection to `host`:`port` on loopback, made by the tests' process; a
   * socket-like stream at once (writes wait on the other side until it is connected).
   * @param {string} host @param {number} port
   */
  function dial(host, port) {
    const id = --lastDial;
    const socket = half(id);
    Object.assign(socket, { remoteAddress: host, remotePort: port, connecting: false });
    send({ t: 'hd', conn: id, host, port });
    process.nextTick(() => socket.emit('connect'));
    return socket;
  }

  /** Why the other end dropped a connection, as the error a failed connect would give here. @param {Untrusted} msg @param {Half} d */
  const failure = (msg, d) =>
    typeof msg.code === 'string' && /^E[A-Z]{2,20}$/.test(msg.code)
      ? Object.assign(new Error(`connect ${msg.code} ${d.remoteAddress}:${d.remotePort}`), { code: msg.code, syscall: 'connect' })
      : undefined;

  /** A bridge message from the other end, handled after the current call (never inside a synchronous wait). @param {Untrusted} msg */
  function receive(msg) {
    if (o.guard) {
      if (msg.t === 'hc') throw o.violation('a connection opened by the learner');
      if (msg.t === 'hd') {
        if (!Number.isInteger(msg.conn) || msg.conn !== lastDial - 1) throw o.violation('a dial out of order');
        if (!LOOPBACK.has(msg.host) || !Number.isInteger(msg.port) || msg.port < 1 || msg.port > 65535)
          throw o.violation('a dial of something that is not a loopback port');
        lastDial = msg.conn;
      } else if (!Number.isInteger(msg.conn) || msg.conn === 0 || msg.conn >= nextConn || msg.conn < lastDial) {
        throw o.violation('bytes for a connection that was never opened');
      }
    }
    process.nextTick(() => {
      if (msg.t === 'hc') return o.guard ? undefined : accept(msg);
      if (msg.t === 'hd') return o.guard ? dialHere(msg) : undefined;
      const d = conns.get(msg.conn);
      if (!d) return; // closed here already: what was in flight is dropped
      if (msg.t === 'hb') d.push(Buffer.from(String(msg.b64), 'base64'));
      else if (msg.t === 'he') d.push(null);
      else {
        conns.delete(msg.conn);
        d.destroy(failure(msg, d));
      }
    });
  }

  return {
    isServer,
    standIn,
    dial,
    receive,
    /** The channel closed: every connection across it ends. */
    closeAll() {
      for (const [id, d] of [...conns]) {
        conns.delete(id);
        d.destroy();
      }
    },
  };
}

/** @typedef {ReturnType<typeof createHttpBridge>} HttpBridge */
