/**
 * http.Server for the page, on the loopback network (its responses: response.ts). The life of a
 * request follows Node's: 'connection', then 'request' once the head has arrived; a finished
 * response dumps a body nobody read (so the request's 'end' and 'close' come then), closes after
 * itself ('close' one tick after 'finish'), and ends the connection unless it is kept alive. A
 * connection that goes first aborts the requests still unanswered (their 'aborted', 'close') and
 * closes their responses unfinished; the client's FIN in the middle of a request body is Node's
 * parse error. Every idle timeout of a socket goes through one handler, as Node's socketOnTimeout.
 * close() stops listening, closes idle connections (Node 19+) and emits 'close' once the last
 * connection has gone; closeAllConnections() ends them all.
 */
import { EventEmitter } from '../events.ts';
import type { Handle, Runtime } from '../runtime.ts';
import { nodeError, receivedRaw } from './headers.ts';
import { IncomingMessage } from './incoming.ts';
import type { Frame, Network, Socket } from './loopback.ts';
import { emitClose, ServerResponse } from './response.ts';

export { ServerResponse };

interface ServerOptions {
  IncomingMessage?: typeof IncomingMessage;
  ServerResponse?: typeof ServerResponse;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  headersTimeout?: number;
}

type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

interface Connection {
  socket: Socket;
  /** Requests whose response has not finished. */
  incoming: Array<{ req: IncomingMessage; res: ServerResponse }>;
  /** Cancels the keep-alive timer of an idle connection. */
  idle?: () => void;
}

export interface ServerDeps {
  rt: Runtime;
  network: Network;
}

const NOT_RUNNING = () => nodeError(Error, 'ERR_SERVER_NOT_RUNNING', 'Server is not running.');

export function serverClass({ rt, network }: ServerDeps) {
  return class Server extends EventEmitter implements Handle {
    readonly resourceType = 'TCPServerWrap';
    timeout = 0;
    keepAliveTimeout = 5000;
    headersTimeout = 60_000;
    requestTimeout = 300_000;
    maxHeadersCount: number | null = null;
    maxRequestsPerSocket = 0;
    #incomingClass: typeof IncomingMessage;
    #responseClass: typeof ServerResponse;
    #bound: { port: number; host: string } | undefined;
    #binding = false;
    #ref = true;
    #connections = new Set<Connection>();

    constructor(options?: ServerOptions | RequestListener, listener?: RequestListener) {
      super();
      if (typeof options === 'function') [listener, options] = [options, {}];
      this.#incomingClass = options?.IncomingMessage ?? IncomingMessage;
      this.#responseClass = options?.ServerResponse ?? ServerResponse;
      if (options?.keepAliveTimeout !== undefined) this.keepAliveTimeout = options.keepAliveTimeout;
      if (listener) this.on('request', listener);
    }

    get listening(): boolean {
      return this.#bound !== undefined;
    }

    hasRef(): boolean {
      return this.#ref && this.#bound !== undefined;
    }
    ref(): this {
      this.#ref = true;
      return this;
    }
    unref(): this {
      this.#ref = false;
      return this;
    }

    listen(...args: unknown[]): this {
      const cb = typeof args.at(-1) === 'function' ? (args.pop() as () => void) : undefined;
      let port: unknown = args[0];
      let host: unknown = args[1];
      if (port !== null && typeof port === 'object') ({ port, host } = port as { port?: unknown; host?: unknown });
      if (typeof host !== 'string') host = undefined;
      if (typeof port === 'string' && !/^\d+$/.test(port)) {
        throw nodeError(Error, 'ERR_NOT_SUPPORTED', `listening on a path (${port}) is not supported in the page: listen on a port`);
      }
      const n = port === undefined || port === null ? 0 : Number(port);
      if (!Number.isInteger(n) || n < 0 || n > 65535) {
        throw nodeError(RangeError, 'ERR_SOCKET_BAD_PORT', `options.port should be >= 0 and < 65536. Received type ${typeof port} (${String(port)}).`);
      }
      if (this.#bound || this.#binding) throw nodeError(Error, 'ERR_SERVER_ALREADY_LISTEN', 'Listen method has been called more than once without closing.');
      if (cb) this.once('listening', cb);
      const where = host === undefined ? '::' : host === 'localhost' ? '127.0.0.1' : (host as string);
      const bind = () => {
        this.#binding = false;
        const bound = network.bind(n, { host: where, accept: (socket) => this.#accept(socket) });
        if (bound instanceof Error) return rt.nextTick(() => this.emit('error', bound));
        this.#bound = { port: bound, host: where };
        rt.handles.add(this);
        rt.nextTick(() => this.emit('listening'));
      };
      // Node looks a host up first (listening only one turn later), and the lookup keeps the loop
      // alive meanwhile; without a host it binds at once.
      if (host === undefined) bind();
      else {
        this.#binding = true;
        const lookup: Handle = { resourceType: 'GetAddrInfoReqWrap', hasRef: () => true };
        rt.handles.add(lookup);
        rt.io(() => {
          rt.handles.delete(lookup);
          bind();
        });
      }
      return this;
    }

    address(): { address: string; family: string; port: number } | null {
      if (!this.#bound) return null;
      const { host, port } = this.#bound;
      return { address: host, family: host.includes(':') ? 'IPv6' : 'IPv4', port };
    }

    close(cb?: (err?: Error) => void): this {
      if (typeof cb === 'function') {
        if (this.#bound) this.once('close', () => cb());
        else this.once('close', () => cb(NOT_RUNNING()));
      }
      // As Node's http server: the idle connections go first, while it still listens, so that only
      // the check below (or the last busy connection, later) emits 'close'.
      this.closeIdleConnections();
      if (this.#bound) {
        network.unbind(this.#bound.port);
        this.#bound = undefined;
        rt.handles.delete(this);
      }
      this.#emitCloseIfDrained();
      return this;
    }

    closeAllConnections(): void {
      for (const c of [...this.#connections]) c.socket.destroy();
    }
    closeIdleConnections(): void {
      for (const c of [...this.#connections]) if (c.incoming.length === 0) c.socket.destroy();
    }
    getConnections(cb: (err: null, count: number) => void): this {
      rt.nextTick(() => cb(null, this.#connections.size));
      return this;
    }
    setTimeout(ms: number, cb?: () => void): this {
      this.timeout = ms;
      if (cb) this.on('timeout', cb);
      return this;
    }
    [Symbol.asyncDispose](): Promise<void> {
      return new Promise((resolve) => this.close(() => resolve()));
    }

    #emitCloseIfDrained(): void {
      if (this.#bound || this.#connections.size > 0) return;
      rt.nextTick(() => this.emit('close'));
    }

    #accept(socket: Socket): void {
      const conn: Connection = { socket, incoming: [] };
      this.#connections.add(conn);
      // Node's server handles its sockets' errors itself (they only end the connection).
      socket.on('error', () => {});
      // Node counts a connection gone when its socket is destroyed (the server may emit 'close' before
      // the socket does), and aborts what it still carried when the socket has closed.
      socket.onDestroy = () => {
        this.#connections.delete(conn);
        if (!this.#bound) this.#emitCloseIfDrained();
      };
      socket.on('close', () => {
        for (const { req, res } of conn.incoming.splice(0)) {
          req.destroy(nodeError(Error, 'ECONNRESET', 'aborted'));
          emitClose(res);
        }
      });
      this.emit('connection', socket);
      let current: IncomingMessage | undefined;
      // Node's socketOnEnd: the client's FIN in the middle of a request body is a parse error (a
      // 'clientError', or else the socket is destroyed with it); otherwise the server ends its side too.
      socket.on('end', () => {
        if (!current || current.complete) return void socket.end();
        const err = nodeError(Error, 'HPE_INVALID_EOF_STATE', 'Parse Error', { bytesParsed: 0, reason: 'Invalid EOF state' });
        if (!this.emit('clientError', err, socket)) socket.destroy(err);
      });
      // Node's socketOnTimeout, for every idle timeout of the socket (server.timeout, req.setTimeout,
      // res.setTimeout): told are the request still arriving, the response and the server; when none
      // of them listens, the socket is destroyed.
      socket.on('timeout', () => {
        const reqHeard = current !== undefined && !current.complete && current.emit('timeout', socket);
        const res = socket._httpMessage as ServerResponse | null;
        const resHeard = res?.emit('timeout', socket) ?? false;
        if (!this.emit('timeout', socket) && !reqHeard && !resHeard) socket.destroy();
      });
      if (this.timeout > 0) socket.setTimeout(this.timeout);
      socket.onFrame = (frame) => {
        if (frame.type === 'head') {
          conn.idle?.();
          current = this.#request(conn, frame);
        } else if (frame.type === 'data') current?._pushBody(frame.chunk);
        else current?._complete();
      };
    }

    #request(conn: Connection, head: Extract<Frame, { type: 'head' }>): IncomingMessage {
      const req = new this.#incomingClass(conn.socket, rt);
      req.method = head.method;
      req.url = head.url ?? '/';
      req.rawHeaders = receivedRaw(head.raw);
      const res = new this.#responseClass(req, rt);
      res._keepAliveTimeout = this.keepAliveTimeout;
      const connection = req.headers.connection;
      res.shouldKeepAlive = !(typeof connection === 'string' && /\bclose\b/i.test(connection));
      conn.incoming.push({ req, res });
      if (conn.incoming.length === 1) res.assignSocket(conn.socket);
      res.on('finish', () => this.#finished(conn, req, res));
      this.emit('request', req, res);
      return req;
    }

    /** Node's resOnFinish: the next response may go, this one closes, the connection may end. */
    #finished(conn: Connection, req: IncomingMessage, res: ServerResponse): void {
      const i = conn.incoming.findIndex((x) => x.res === res);
      if (i >= 0) conn.incoming.splice(i, 1);
      if (!req._consuming && !(req as unknown as { _readableState: { resumeScheduled: boolean } })._readableState.resumeScheduled) req._dump();
      if (res.socket) res.detachSocket(conn.socket);
      rt.nextTick(() => emitClose(res));
      if (!res.shouldKeepAlive) conn.socket.destroySoon();
      else if (conn.incoming[0]) conn.incoming[0].res.assignSocket(conn.socket);
      // Node closes a kept-alive connection that stays idle for keepAliveTimeout.
      else if (this.keepAliveTimeout > 0) conn.idle = rt.setTimer(() => conn.socket.destroy(), this.keepAliveTimeout);
    }
  };
}

export type ServerClass = ReturnType<typeof serverClass>;
