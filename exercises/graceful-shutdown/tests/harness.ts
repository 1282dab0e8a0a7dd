// Shared by the hidden tests: a real node:http server on loopback, handed to the learner's
// serveGracefully() with a small application of the tests' own (answers at once, later, never, or in
// two parts), clients that keep their connection alive or open a fresh one per request, and a record
// of every connection the server accepted and when it closed. The tests of a file run concurrently
// (test.concurrent, describe.concurrent: they wait on real timers), so each test gets its own scope (the `h` fixture) and
// everything it opened is closed when that test finishes, however it ended.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { scopedTest, TestScope } from '../test-support/scope.ts';
import { serveGracefully, type Graceful, type GracefulOptions } from '../src/shutdown.ts';

/** A connection the server accepted. */
export interface Conn {
  id: number;
  openedAt: number;
  closedAt?: number;
}

/** A request the server received (whoever answered it). */
export interface Seen {
  /** the x-n header the tests' client sent */
  n: number;
  path: string;
  conn: number;
  at: number;
}

export interface Reply {
  /** undefined when no answer head arrived */
  status?: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the whole answer arrived */
  complete: boolean;
  /** why it did not: ECONNREFUSED, ECONNRESET (hung up before any answer), cut (mid-answer), no answer */
  error?: string;
  /** the server's connection it came on (Conn.id), when the server saw it */
  conn?: number;
  /** it went on a kept-alive connection */
  reused: boolean;
  sentAt: number;
  /** when it ended, one way or the other */
  at: number;
}

/** One call of shutdown(): when, and how it settled. */
export interface Stop {
  t0: number;
  /** what shutdown() threw synchronously, if it did */
  threw?: unknown;
  settled?: { ok: boolean; at: number; error?: unknown };
}

/** A client whose requests, one at a time, share one kept-alive connection while the server keeps it. */
export interface Client {
  get(path: string): Promise<Reply>;
}

export interface Rig {
  server: http.Server;
  port: number;
  graceful: Graceful;
  conns: Conn[];
  seen: Seen[];
  /** paths the application (the handler) received */
  handled: string[];
  /** when the server emitted 'close' */
  closedAt?: number;
  /** when server.close() was first called: the server stopped accepting then */
  stoppedAt?: number;
  /** a request on a connection of its own (GET unless told) */
  fresh(path: string, method?: string): Promise<Reply>;
  client(): Client;
  /** calls shutdown() and records how it went */
  shutdown(): Stop;
  /** the connection the nth request (x-n) came on */
  connOf(reply: Reply): Conn | undefined;
}

export interface RigOptions {
  drainMs?: number;
  preStopMs?: number;
  /** false: the server never listens */
  listen?: boolean;
  /** the server emits 'close' this long after its last connection has gone (Node: a tick after) */
  closeLagMs?: number;
}

/** How long a request waits for its answer at most (a correct solution needs under 1 s everywhere). */
const WAIT_MS = 4000;

/** What one test opened, closed when it finishes. */
export class Scope extends TestScope {
  /** Sleeps until `ms` after `t0`. */
  async at(t0: number, ms: number): Promise<void> {
    const wait = t0 + ms - performance.now();
    if (wait > 0) await this.sleep(wait);
  }

  /** Waits until the shutdown has settled, at most `maxMs`; true when it has. */
  settled(stop: Stop, maxMs: number): Promise<boolean> {
    return this.until(() => stop.settled !== undefined || stop.threw !== undefined, maxMs);
  }

  start(opts: RigOptions = {}): Promise<Rig> {
    return startRig(this, opts);
  }
}

/** vitest's test with an `h` fixture: a fresh Scope per test, closed when the test finishes. */
export const test = scopedTest(() => new Scope());

/**
 * The application behind serveGracefully, by path: /slow/<ms> answers after <ms>; /hang never
 * answers; /stream/<ms> sends its head and a first part at once and the rest after <ms>; anything
 * else answers 200 "ok" at once.
 */
function app(h: Scope, handled: string[]): GracefulOptions['handler'] {
  return (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    handled.push(path);
    const [, route, arg] = path.split('/');
    const ms = Number(arg);
    if (route === 'slow') {
      h.later(ms, () => {
        if (res.headersSent || res.destroyed) return;
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`done after ${ms} ms`);
      });
    } else if (route === 'hang') {
      // never answers
    } else if (route === 'stream') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('part 1;');
      h.later(ms, () => {
        if (!res.destroyed && !res.writableEnded) res.end('part 2');
      });
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    }
  };
}

async function startRig(h: Scope, opts: RigOptions): Promise<Rig> {
  const server = http.createServer();
  const conns: Conn[] = [];
  const seen: Seen[] = [];
  const handled: string[] = [];
  const connOfSocket = new WeakMap<object, Conn>();
  let sent = 0;
  server.on('connection', (socket) => {
    const conn: Conn = { id: conns.length + 1, openedAt: performance.now() };
    conns.push(conn);
    connOfSocket.set(socket, conn);
    socket.on('close', () => (conn.closedAt ??= performance.now()));
  });
  // The tests' own record of every request, beside the learner's listener (it answers nothing).
  server.on('request', (req: http.IncomingMessage) => {
    seen.push({
      n: Number(req.headers['x-n']),
      path: (req.url ?? '/').split('?')[0]!,
      conn: connOfSocket.get(req.socket)?.id ?? 0,
      at: performance.now(),
    });
  });
  const rig: Rig = {
    server,
    port: 0,
    graceful: undefined as unknown as Graceful,
    conns,
    seen,
    handled,
    fresh: (path, method = 'GET') => send(path, false, method),
    client() {
      const agent = new http.Agent({ keepAlive: true });
      h.defer(() => agent.destroy());
      return { get: (path) => send(path, agent, 'GET') };
    },
    shutdown() {
      const stop: Stop = { t0: performance.now() };
      try {
        const p = rig.graceful.shutdown();
        Promise.resolve(p).then(
          () => (stop.settled = { ok: true, at: performance.now() }),
          (error: unknown) => (stop.settled = { ok: false, at: performance.now(), error }),
        );
      } catch (error) {
        stop.threw = error;
      }
      return stop;
    },
    connOf: (reply) => conns.find((c) => c.id === reply.conn),
  };
  server.on('close', () => (rig.closedAt ??= performance.now()));
  // Node emits 'close' a tick after the last connection has gone, and close()'s callback with it. A
  // shutdown that resolves when its last response closes, without waiting for that, ends a tick early
  // in one process, but in strict grading the response's 'close' crosses to the learner's process and
  // the resolution crosses back after the server has closed. With 'close' held back a while, that
  // shutdown shows as early wherever it runs; one that waits for 'close' is not affected.
  const lag = opts.closeLagMs;
  if (lag) {
    const emit = server.emit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
    server.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      if (event !== 'close') return emit.call(this, event, ...args);
      h.later(lag, () => emit.call(this, event));
      return this.listenerCount('close') > 0;
    } as typeof server.emit;
  }
  // The moment the server stops accepting is when close() is called on it (installed before the
  // server is handed over, so that every call, from either process in strict grading, comes here).
  const close = server.close;
  server.close = function (this: http.Server, ...args: Parameters<http.Server['close']>) {
    rig.stoppedAt ??= performance.now();
    return close.apply(this, args);
  };
  h.defer(() => {
    server.closeAllConnections();
    server.close();
  });
  rig.graceful = serveGracefully(server, { handler: app(h, handled), drainMs: opts.drainMs ?? 2000, preStopMs: opts.preStopMs ?? 0 });
  if (opts.listen !== false) {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    rig.port = (server.address() as AddressInfo).port;
  }

  function send(path: string, agent: http.Agent | false, method: string): Promise<Reply> {
    const n = ++sent;
    const sentAt = performance.now();
    const client = http.request({ host: '127.0.0.1', port: rig.port, path, method, agent, headers: { 'x-n': String(n) } });
    h.defer(() => client.destroy());
    return new Promise<Reply>((resolve) => {
      const reply: Reply = { headers: {}, body: '', complete: false, reused: false, sentAt, at: 0 };
      let done = false;
      // Cleared as soon as the request ends: G8 counts the timers left in the process.
      const guard = setTimeout(() => finish('no answer'), WAIT_MS);
      h.defer(() => clearTimeout(guard));
      const finish = (error?: string) => {
        if (done) return;
        done = true;
        clearTimeout(guard);
        if (error) reply.error = error;
        reply.at = performance.now();
        reply.reused = client.reusedSocket;
        reply.conn = seen.find((s) => s.n === n)?.conn;
        resolve(reply);
      };
      client.on('error', (e: NodeJS.ErrnoException) => finish(e.code ?? e.message));
      // Once an answer has begun, its own 'end' or 'close' tells how it ended.
      client.on('close', () => {
        if (reply.status === undefined) finish('ECONNRESET');
      });
      client.on('response', (res) => {
        reply.status = res.statusCode;
        reply.headers = res.headers;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (reply.body += chunk));
        res.on('error', () => finish('cut'));
        res.on('end', () => {
          reply.complete = true;
          finish();
        });
        res.on('close', () => finish('cut'));
      });
      client.end();
    });
  }
  return rig;
}

export const ms = (t: number | undefined) => (t === undefined ? 'never' : `${Math.round(t)} ms`);

/** What happened to a request, as a learner reads it. */
export function showReply(r: Reply): string {
  if (r.status === undefined) {
    if (r.error === 'ECONNREFUSED') return 'the connection was refused';
    if (r.error === 'no answer') return `no answer within ${WAIT_MS} ms`;
    return `the connection closed before any answer (${r.error})`;
  }
  const conn = r.headers.connection === undefined ? '' : `, Connection: ${String(r.headers.connection)}`;
  const body = r.complete ? `${JSON.stringify(r.body)}` : `cut after ${JSON.stringify(r.body)}`;
  return `${r.status}${conn}, ${body}`;
}

/** When something happened, from the shutdown() call. */
export const since = (stop: Stop, t: number | undefined) => (t === undefined ? 'never' : `${Math.round(t - stop.t0)} ms after shutdown()`);

/** How a shutdown() call went, its times counted from `from` (by default, that call). */
export function showStop(stop: Stop, from: Stop = stop): string {
  if (stop.threw !== undefined) return `shutdown() threw ${describe(stop.threw)}`;
  if (!stop.settled) return 'shutdown() had not settled';
  return stop.settled.ok
    ? `shutdown() resolved ${since(from, stop.settled.at)}`
    : `shutdown() rejected ${since(from, stop.settled.at)} with ${describe(stop.settled.error)}`;
}

export function describe(e: unknown): string {
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

// The first server and request in a process are slow (Node loads its HTTP parts lazily): pay for
// that once, before any test measures time.
{
  const warm = http.createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => warm.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => {
    const r = http.get({ host: '127.0.0.1', port: (warm.address() as AddressInfo).port, agent: false }, (res) => {
      res.resume();
      res.on('end', resolve);
    });
    r.on('error', () => resolve());
  });
  warm.closeAllConnections();
  warm.close();
}
