/**
 * http.request / http.get and http.ClientRequest for the page. A request connects (one turn later)
 * over the loopback network and behaves as Node's does towards the code that made it: 'socket',
 * 'finish', 'response' with an IncomingMessage, 'close'; a refused connection is an ECONNREFUSED
 * 'error'; a connection that goes before any response is "socket hang up" (ECONNRESET), one that
 * goes mid-response aborts the response instead. A socket's error (an AbortSignal's AbortError, a
 * destroy(err)) is the request's 'error', before or after the response. A connection is ended once
 * the response is, or (kept alive) given back once both the request and the response are done.
 */
import { AbortError } from '../events.ts';
import type { Runtime } from '../runtime.ts';
import { nodeError, receivedRaw, validateHeaderName } from './headers.ts';
import { IncomingMessage } from './incoming.ts';
import type { Frame, Network, Socket } from './loopback.ts';
import { OutgoingMessage } from './outgoing.ts';
import { ConnectionPool } from './pool.ts';

export { AbortError };

export interface RequestOptions {
  protocol?: string;
  host?: string;
  hostname?: string;
  port?: number | string;
  path?: string;
  method?: string;
  headers?: Record<string, string | number | string[]> | string[];
  agent?: Agent | boolean;
  timeout?: number;
  signal?: AbortSignal;
  setHost?: boolean;
  defaultPort?: number;
  auth?: string;
}

export class Agent {
  keepAlive: boolean;
  readonly _pool = new ConnectionPool();
  maxSockets = Number.POSITIVE_INFINITY;
  options: Record<string, unknown>;
  constructor(options: { keepAlive?: boolean } = {}) {
    this.options = { ...options };
    this.keepAlive = options.keepAlive ?? false;
  }
  destroy(): void {}
}

const NO_BODY_BY_DEFAULT = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/** The options of request(url?, options?, cb?), merged as Node merges them. */
function normalize(args: unknown[]): { opts: RequestOptions; cb?: (res: IncomingMessage) => void } {
  let opts: RequestOptions = {};
  let i = 0;
  if (typeof args[0] === 'string' || args[0] instanceof URL) {
    const url = new URL(String(args[0]));
    opts = {
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      ...(url.port ? { port: Number(url.port) } : {}),
      path: `${url.pathname}${url.search}`,
      ...(url.username ? { auth: `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}` } : {}),
    };
    i = 1;
  }
  if (args[i] !== null && typeof args[i] === 'object') opts = { ...opts, ...(args[i] as RequestOptions) };
  else if (typeof args[i] !== 'function') i--;
  const cb = args.slice(i + 1).find((a) => typeof a === 'function') as ((res: IncomingMessage) => void) | undefined;
  return { opts, cb: cb ?? (typeof args[i] === 'function' ? (args[i] as (res: IncomingMessage) => void) : undefined) };
}

export function clientRequestClass(rt: Runtime, network: Network, globalAgent: Agent) {
  return class ClientRequest extends OutgoingMessage {
    method: string;
    path: string;
    host: string;
    protocol = 'http:';
    port: number;
    res: IncomingMessage | null = null;
    aborted = false;
    reusedSocket = false;
    maxHeadersCount: number | null = null;
    agent: Agent | false;
    #raw: string[] | undefined;
    #hadError = false;

    constructor(...args: unknown[]) {
      super(rt);
      const { opts, cb } = normalize(args);
      const protocol = opts.protocol ?? 'http:';
      if (protocol !== 'http:') throw nodeError(TypeError, 'ERR_INVALID_PROTOCOL', `Protocol "${protocol}" not supported. Expected "http:"`);
      this.agent = opts.agent === false ? false : opts.agent instanceof Agent ? opts.agent : globalAgent;
      this.host = opts.hostname || opts.host?.replace(/:\d+$/, '') || 'localhost';
      this.port = Number(opts.port || opts.defaultPort || 80);
      this.path = opts.path || '/';
      // biome-ignore lint/suspicious/noControlCharactersInRegex: Node refuses exactly these characters in a path
      if (/[\u0000-\u0020]/.test(this.path)) throw nodeError(TypeError, 'ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters');
      this.method = (opts.method || 'GET').toUpperCase();
      validateHeaderName(this.method, 'Method');
      this.useChunkedEncodingByDefault = !NO_BODY_BY_DEFAULT.has(this.method);
      if (this.method === 'HEAD') this._hasBody = false;
      if (Array.isArray(opts.headers)) this.#raw = opts.headers.map(String);
      else for (const [k, v] of Object.entries(opts.headers ?? {})) this.setHeader(k, v);
      if (opts.auth && !this.hasHeader('authorization')) this.setHeader('Authorization', `Basic ${btoa(opts.auth)}`);
      if (!this.#raw && opts.setHost !== false && !this.hasHeader('host')) {
        const host = this.host.includes(':') ? `[${this.host}]` : this.host;
        this.setHeader('Host', this.port === 80 ? host : `${host}:${this.port}`);
      }
      this.shouldKeepAlive = this.agent !== false && this.agent.keepAlive;
      if (cb) this.once('response', cb);
      if (opts.timeout !== undefined) this.setTimeout(opts.timeout);
      const signal = opts.signal;
      if (signal) {
        const onAbort = () => this.destroy(new AbortError(undefined, { cause: signal.reason }));
        if (signal.aborted) rt.nextTick(onAbort);
        else {
          signal.addEventListener('abort', onAbort, { once: true });
          this.once('close', () => signal.removeEventListener('abort', onAbort));
        }
      }
      rt.nextTick(() => this.#connect());
    }

    override _implicitHeader(): void {
      const raw = this.#raw ?? this.storedLines();
      const has = (name: string) => raw.some((h, i) => i % 2 === 0 && h.toLowerCase() === name);
      const out = [...raw];
      const connection = raw.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'connection');
      if (connection < 0) out.push('Connection', this.shouldKeepAlive ? 'keep-alive' : 'close');
      // As Node's _storeHeader: the code's own "Connection: keep-alive" keeps the connection for the exchange.
      else if (!/\bclose\b/i.test(raw[connection + 1]!)) this.shouldKeepAlive = true;
      if (this._hasBody && !has('content-length') && !has('transfer-encoding')) {
        if (this._contentLength !== undefined && (this._contentLength > 0 || this.useChunkedEncodingByDefault))
          out.push('Content-Length', String(this._contentLength));
        else if (this._contentLength === undefined && this.useChunkedEncodingByDefault) {
          this.chunkedEncoding = true;
          out.push('Transfer-Encoding', 'chunked');
        }
      }
      this._header = out;
    }

    protected override headFrame(raw: string[]): Frame {
      return { type: 'head', method: this.method, url: this.path, raw };
    }

    /** Finishes only once the request has really left: after its connection was made. */
    protected override finishWhenSent(): void {
      const done = () => super.finishWhenSent();
      if (this.socket && !this.socket.connecting) done();
      else this.once('_connected', done);
    }

    abort(): void {
      if (this.aborted) return;
      this.aborted = true;
      rt.nextTick(() => this.emit('abort'));
      this.destroy();
    }

    /** Node's: a response still arriving is no longer wanted (its 'data' listeners go, the rest is drained). */
    override destroy(error?: Error): this {
      if (this.destroyed) return this;
      this.res?._dump();
      return super.destroy(error);
    }

    /** Node's: the socket's timeout is this request's 'timeout' (and never destroys it by itself). */
    override setTimeout(ms: number, cb?: () => void): this {
      if (cb) this.once('timeout', cb);
      const arm = (s: Socket) => s.setTimeout(ms, () => this.emit('timeout'));
      if (this.socket) arm(this.socket);
      else this.once('socket', arm);
      return this;
    }

    setNoDelay(): void {}
    setSocketKeepAlive(): void {}

    #connect(): void {
      const key = `${this.host}:${this.port}`;
      const pool = this.agent !== false && this.agent.keepAlive ? this.agent._pool : undefined;
      // A request destroyed before this still gets its socket, which destroy() then closes (see OutgoingMessage).
      const reused = this.destroyed ? undefined : pool?.take(key);
      const socket = reused ?? network.connect(this.host, this.port);
      this.reusedSocket = reused !== undefined;
      this.socket = socket;
      socket._httpMessage = this;
      const onConnect = () => {
        this.flushQueued();
        this.emit('_connected');
      };
      // Node's socketErrorListener: a socket's error is the request's, response or not (an abort or
      // destroy(err) in the middle of the body); the response is then aborted when the socket closes.
      const onError = (err: Error) => {
        if (this.#hadError) return;
        this.#hadError = true;
        this.emit('error', err);
      };
      const onClose = () => this.#closed();
      // Node's responseOnTimeout: res.setTimeout() (or any idle timeout) is the response's 'timeout' too.
      const onTimeout = () => this.res?.emit('timeout');
      socket.on('error', onError);
      socket.on('close', onClose);
      socket.on('timeout', onTimeout);
      socket.onFrame = (frame) => {
        if (frame.type !== 'end' || !this.res) return this.#onFrame(frame, socket);
        this.res._complete();
        // Node's responseOnEnd: a connection not kept alive ends now; a kept-alive one is released
        // once the request has been sent to its end too (a body may still be on its way).
        if (!this.shouldKeepAlive || /\bclose\b/i.test(String(this.res.headers.connection ?? ''))) return void socket.end();
        const release = () => {
          if (this.destroyed) return;
          socket.off('error', onError);
          socket.off('close', onClose);
          socket.off('connect', onConnect);
          socket.off('timeout', onTimeout);
          socket._httpMessage = null;
          this.destroyed = true;
          rt.nextTick(() => {
            this._closed = true;
            this.emit('close');
            // The connection goes back to the agent for the next request; an agent without
            // keep-alive (or none) closes it, as Node's agent does with a freed socket.
            if (pool) pool.give(key, socket);
            else socket.destroy();
          });
        };
        if (this.writableFinished) release();
        else this.once('finish', release);
      };
      this.emit('socket', socket);
      if (reused) onConnect();
      else socket.on('connect', onConnect);
    }

    #onFrame(frame: Frame, socket: Socket): void {
      if (frame.type === 'head') {
        const res = new IncomingMessage(socket, rt);
        res.statusCode = frame.status;
        res.statusMessage = frame.statusMessage;
        res.rawHeaders = receivedRaw(frame.raw);
        (res as unknown as { req: unknown }).req = this;
        this.res = res;
        // A response nobody listens for is read and thrown away, as Node does.
        if (!this.emit('response', res)) res._dump();
      } else if (frame.type === 'data') this.res?._pushBody(frame.chunk);
    }

    #closed(): void {
      const res = this.res;
      if (res) {
        if (!res.complete) res.destroy(nodeError(Error, 'ECONNRESET', 'aborted'));
      } else if (!this.#hadError) {
        // As Node's socketCloseListener: no response and no error yet (a plain destroy(), abort()) is a hang-up.
        this.#hadError = true;
        this.emit('error', nodeError(Error, 'ECONNRESET', 'socket hang up'));
      }
      this.destroyed = true;
      this._closed = true;
      this.emit('close');
    }
  };
}

export type ClientRequestClass = ReturnType<typeof clientRequestClass>;
