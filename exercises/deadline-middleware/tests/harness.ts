// Shared by the hidden tests: a real node:http server on loopback that runs the learner's
// middleware and then a handler (a tiny connect-style adapter), a client that can disconnect,
// and clocks. A rule's tests run concurrently (test.concurrent: most wait on real timers), so each
// test gets its own scope (the `h` fixture) and everything it opened is closed when that test
// finishes, however it ended: broken code cannot hang the run or leak into another test.
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { scopedTest, TestScope } from '../test-support/scope.ts';

export type Req = IncomingMessage & { deadline?: any };
export type Middleware = (req: Req, res: ServerResponse, next: (err?: unknown) => void) => void;
export type Handler = (req: Req, res: ServerResponse, call: Served) => void | Promise<void>;

/** One request as the server saw it. */
export interface Served {
  req: Req;
  res: ServerResponse;
  nextCalls: unknown[][];
  /** true when the first next() ran before the middleware returned */
  nextSync: boolean | undefined;
  /** req.deadline when next() was first called */
  ctx: any;
  /** performance.now() and Date.now() when next() was first called */
  /** performance.now() when the server got the request, before the middleware ran */
  receivedAt: number;
  nextAt: number;
  nextAtDate: number;
  handlerCalled: boolean;
  threw: unknown;
  /** neither next() nor an answer within STUCK_MS: the harness answered 500 itself */
  stuck: boolean;
}

/** A middleware must call next() synchronously or answer at once; this long is plenty. */
const STUCK_MS = 500;

export interface Server {
  port: number;
  url: string;
  served: Served[];
  /** resolves with the nth request (0-based) once the middleware has handled it */
  request(n?: number): Promise<Served>;
  /** the scope of the test that started this server */
  scope: Scope;
}

/** What one test opened, closed when it finishes. */
export class Scope extends TestScope {
  startServer(mw: Middleware, handler: Handler = respondAtOnce): Promise<Server> {
    return startServer(this, mw, handler);
  }
}

/** vitest's test with an `h` fixture: a fresh Scope per test, closed when the test finishes. */
export const test = scopedTest(() => new Scope());

/** Ends a response if nobody has (the middleware may have answered on its own). */
export function endIfOpen(res: ServerResponse, body = 'ok'): void {
  if (!res.headersSent && !res.writableEnded && !res.destroyed) {
    res.statusCode = 200;
    res.setHeader('content-type', 'text/plain');
    res.end(body);
  } else if (!res.writableEnded && !res.destroyed) {
    res.end();
  }
}

export const respondAtOnce: Handler = (_req, res) => endIfOpen(res);

async function startServer(scope: Scope, mw: Middleware, handler: Handler): Promise<Server> {
  const served: Served[] = [];
  const waiters: Array<{ n: number; resolve: (s: Served) => void }> = [];
  const server = http.createServer((req: Req, res) => {
    const call: Served = {
      receivedAt: performance.now(),
      req,
      res,
      nextCalls: [],
      nextSync: undefined,
      ctx: undefined,
      nextAt: NaN,
      nextAtDate: NaN,
      handlerCalled: false,
      threw: undefined,
      stuck: false,
    };
    served.push(call);
    let returned = false;
    try {
      mw(req, res, (...args: unknown[]) => {
        call.nextCalls.push(args);
        if (call.nextCalls.length !== 1) return;
        call.nextSync = !returned;
        call.nextAt = performance.now();
        call.nextAtDate = Date.now();
        call.ctx = req.deadline;
        scope.retain(call.ctx?.signal);
        call.handlerCalled = true;
        if (args[0] !== undefined) {
          // connect would send an error page here
          if (!res.headersSent) res.statusCode = 500;
          res.end();
          return;
        }
        Promise.resolve()
          .then(() => handler(req, res, call))
          .catch((e) => {
            call.threw ??= e;
            if (!res.headersSent) res.statusCode = 500;
            res.end();
          });
      });
    } catch (e) {
      call.threw = e;
      if (!res.headersSent) res.statusCode = 500;
      if (!res.writableEnded) res.end();
    }
    returned = true;
    if (!call.handlerCalled && !res.writableEnded) {
      // fail fast instead of letting every test wait for its own timeout
      const timer = setTimeout(() => {
        if (call.handlerCalled || res.writableEnded || res.destroyed) return;
        call.stuck = true;
        if (!res.headersSent) res.writeHead(500, { 'x-harness': 'stuck' });
        res.end();
      }, STUCK_MS);
      scope.defer(() => clearTimeout(timer));
    }
    for (const w of waiters.filter((w) => w.n === served.length - 1)) w.resolve(call);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  scope.defer(() => {
    server.closeAllConnections();
    server.close();
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    served,
    scope,
    request(n = 0) {
      if (served[n]) return Promise.resolve(served[n]);
      return new Promise((resolve) => waiters.push({ n, resolve }));
    },
  };
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface SendOptions {
  method?: string;
  path?: string;
  /** an array sends the header once per value */
  headers?: Record<string, string | string[]>;
  body?: string;
  /** leave the request body open (no end()) */
  keepOpen?: boolean;
}

/** A request on its own connection (closed after the reply), which the test may destroy. */
export function send(server: Server, opts: SendOptions = {}): { reply: Promise<Reply>; client: http.ClientRequest } {
  const client = http.request({
    host: '127.0.0.1',
    port: server.port,
    path: opts.path ?? '/',
    method: opts.method ?? 'GET',
    agent: false,
    headers: { connection: 'close', ...opts.headers },
  });
  server.scope.defer(() => client.destroy());
  const reply = new Promise<Reply>((resolve, reject) => {
    client.on('error', reject);
    client.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
  });
  reply.catch(() => {});
  if (opts.body !== undefined) client.write(opts.body);
  if (!opts.keepOpen) client.end();
  else client.flushHeaders();
  return { reply, client };
}

export function get(server: Server, opts: SendOptions = {}): Promise<Reply> {
  return send(server, opts).reply;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves with performance.now() when the signal aborts, or with undefined after timeoutMs. */
export function abortedWithin(signal: AbortSignal, timeoutMs: number): Promise<number | undefined> {
  if (signal.aborted) return Promise.resolve(performance.now());
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(undefined), timeoutMs);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve(performance.now());
      },
      { once: true },
    );
  });
}

/** A clock far from performance.now() and Date.now(), so reading the wrong one shows. */
export function frozenClock(t = 7_000_000): { now: () => number; t: number } {
  const clock = { t, now: () => clock.t };
  return clock;
}

/** A clock that runs with real time, offset far from performance.now() and Date.now(). */
export const OFFSET = 5_000_000;
export const runningClock = () => performance.now() + OFFSET;

export function isUuid(s: unknown): boolean {
  return typeof s === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);
}

/** The request reached the handler: returns req.deadline, or fails with what happened instead. */
export function reached(call: Served | undefined, what: string): any {
  if (!call) throw new Error(`${what}: the request never reached the server`);
  if (call.threw) throw new Error(`${what}: your middleware threw ${String(call.threw)}`);
  if (call.stuck) throw new Error(`${what}: your middleware neither called next() nor answered within ${STUCK_MS} ms`);
  if (!call.handlerCalled) {
    const status = call.res.headersSent ? ` (it answered ${call.res.statusCode})` : '';
    throw new Error(`${what}: your middleware did not call next()${status}`);
  }
  return call.ctx;
}

export const show = (v: unknown) => (typeof v === 'string' ? JSON.stringify(v) : String(v));
