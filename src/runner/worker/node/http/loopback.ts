/**
 * The page's loopback network: ports that servers listen on, and connections between a client and a
 * server, each a pair of sockets. What crosses a connection is not bytes but HTTP messages in parts
 * (a head, body chunks, the end of a message), delivered to the other end one event-loop turn later,
 * in order, as the data of a real socket would be; closing one end closes the other one turn later
 * (a FIN). Only 127.0.0.0/8, ::1 and localhost exist here: a connection anywhere else, or to a port
 * nothing listens on, is refused as Node refuses it (ECONNREFUSED).
 */
import { EventEmitter } from '../events.ts';
import type { Handle, Runtime } from '../runtime.ts';
import { nodeError } from './headers.ts';

/** What one end sends the other: parts of HTTP messages. */
export type Frame =
  | { type: 'head'; method?: string; url?: string; status?: number; statusMessage?: string; raw: string[] }
  | { type: 'data'; chunk: Uint8Array }
  | { type: 'end' };

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1' || /^(::ffff:)?127(\.\d{1,3}){3}$/.test(h);
}

const address = (host: string) => (host.includes(':') ? { address: host, family: 'IPv6' } : { address: host, family: 'IPv4' });

/** One end of a connection: the part of net.Socket that HTTP code (and learners) use. */
export class Socket extends EventEmitter implements Handle {
  readonly resourceType = 'TCPSocketWrap';
  destroyed = false;
  /** Node's `errored`: the error the socket was destroyed with. */
  errored: Error | null = null;
  connecting = false;
  readable = true;
  writable = true;
  bytesRead = 0;
  bytesWritten = 0;
  timeout: number | undefined = undefined;
  remoteAddress: string | undefined;
  remotePort: number | undefined;
  remoteFamily: string | undefined;
  localAddress: string | undefined;
  localPort: number | undefined;
  /** The HTTP layer's receiver of what the other end sends. */
  onFrame: ((f: Frame) => void) | undefined;
  /** Told the moment this end is destroyed, before its 'close' (a server counts its connections so). */
  onDestroy: (() => void) | undefined;
  /** The HTTP message that owns this socket (Node's socket._httpMessage). */
  _httpMessage: unknown = null;
  #ref = true;
  #ended = false;
  #endEmitted = false;
  #peer: Socket | undefined;
  #inbox: Array<Frame | 'fin'> = [];
  #draining = false;
  #idle: { ms: number; cancel?: () => void } | undefined;
  readonly #rt: Runtime;

  constructor(rt: Runtime) {
    super();
    this.#rt = rt;
    rt.handles.add(this);
  }

  get readyState(): string {
    if (this.connecting) return 'opening';
    return this.destroyed ? 'closed' : 'open';
  }
  get pending(): boolean {
    return this.connecting;
  }
  /** As Node's: true from destroy() on (its handle's close callback comes later, with 'close'). */
  get closed(): boolean {
    return this.destroyed;
  }
  /** end() was called (the FIN sent), not merely destroyed. */
  get writableEnded(): boolean {
    return this.#ended;
  }
  /** 'end' was emitted: the other end's FIN arrived. */
  get readableEnded(): boolean {
    return this.#endEmitted;
  }
  /** Nothing waits to be written: parts are handed to the other end at once. */
  get writableLength(): number {
    return 0;
  }

  /** Joins two fresh sockets into one connection. */
  static pair(rt: Runtime, client: Socket, server: Socket, host: string, serverPort: number, clientPort: number): void {
    client.#peer = server;
    server.#peer = client;
    const local = host === 'localhost' ? '127.0.0.1' : host.replace(/^\[|\]$/g, '');
    Object.assign(client, { localAddress: local, localPort: clientPort, remoteAddress: local, remotePort: serverPort, remoteFamily: address(local).family });
    Object.assign(server, { localAddress: local, localPort: serverPort, remoteAddress: local, remotePort: clientPort, remoteFamily: address(local).family });
    void rt;
  }

  /** Sends a part of a message to the other end (delivered one turn later). */
  send(frame: Frame): void {
    if (this.destroyed || !this.#peer) return;
    if (frame.type === 'data') this.bytesWritten += frame.chunk.byteLength;
    this.#touch();
    this.#peer.#receive(frame);
  }

  #receive(item: Frame | 'fin'): void {
    this.#inbox.push(item);
    if (this.#draining) return;
    this.#draining = true;
    this.#rt.io(() => {
      this.#draining = false;
      const items = this.#inbox.splice(0);
      for (const it of items) {
        if (this.destroyed) return;
        if (it === 'fin') {
          this.#onFin();
          continue;
        }
        if (it.type === 'data') this.bytesRead += it.chunk.byteLength;
        this.#touch();
        this.onFrame?.(it);
      }
    });
  }

  /** The other end closed: Node emits 'end', then (no half-open sockets) closes this end too. */
  #onFin(): void {
    this.readable = false;
    this.#endEmitted = true;
    this.emit('end');
    this.destroy();
  }

  /**
   * As Node's: an 'error' on the next tick, and 'close' when the handle has closed, which libuv
   * reports in a later turn (its close callbacks), never in the same run of promise jobs.
   */
  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.errored = error ?? null;
    this.readable = this.writable = false;
    this.#idle?.cancel?.();
    this.#rt.handles.delete(this);
    if (this.#peer) this.#peer.#receive('fin');
    this.onDestroy?.();
    if (error) this.#rt.nextTick(() => this.emit('error', error));
    this.#rt.io(() => this.emit('close', error !== undefined));
    return this;
  }

  /**
   * A graceful close: what was sent is still delivered, then the other end sees the FIN. As in Node
   * (no half-open sockets), the shutdown completes a turn later: 'finish', then the socket is destroyed.
   */
  end(cb?: () => void): this {
    if (cb) this.once('finish', cb);
    // Node's Writable: even a destroyed socket counts as ended once end() is called, unless it errored.
    if (!this.errored) this.#ended = true;
    if (!this.writable) return this;
    this.writable = false;
    this.#rt.io(() => {
      if (this.destroyed) return;
      this.emit('finish');
      this.destroy();
    });
    return this;
  }
  destroySoon(): void {
    this.end();
  }
  resetAndDestroy(): this {
    return this.destroy();
  }

  write(): boolean {
    throw nodeError(Error, 'ERR_NOT_SUPPORTED', 'writing raw bytes to a socket is not supported in the page: use the HTTP API (res.write, res.end)');
  }

  setTimeout(ms: number, cb?: () => void): this {
    this.#idle?.cancel?.();
    this.timeout = ms;
    if (cb) this.once('timeout', cb);
    this.#idle = ms > 0 ? { ms } : undefined;
    this.#touch();
    return this;
  }
  #touch(): void {
    if (!this.#idle || this.destroyed) return;
    this.#idle.cancel?.();
    this.#idle.cancel = this.#rt.setTimer(() => this.emit('timeout'), this.#idle.ms);
  }

  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  setEncoding(): this {
    return this;
  }
  pause(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  ref(): this {
    this.#ref = true;
    return this;
  }
  unref(): this {
    this.#ref = false;
    return this;
  }
  hasRef(): boolean {
    return this.#ref && !this.destroyed;
  }
  address(): { address: string; family: string; port: number } | Record<string, never> {
    return this.localAddress === undefined ? {} : { ...address(this.localAddress), port: this.localPort! };
  }
}

/** Where a server takes its connections. */
export interface Listener {
  host: string;
  accept(socket: Socket): void;
}

export class Network {
  #ports = new Map<number, Listener>();
  #clientPorts = 49152;
  readonly rt: Runtime;
  constructor(rt: Runtime) {
    this.rt = rt;
  }

  /** Binds `port` (0: a free one) or returns the error Node would give. */
  bind(port: number, listener: Listener): number | Error {
    if (port !== 0 && this.#ports.has(port)) {
      return nodeError(Error, 'EADDRINUSE', `listen EADDRINUSE: address already in use ${listener.host}:${port}`, {
        errno: -98,
        syscall: 'listen',
        address: listener.host,
        port,
      });
    }
    let chosen = port;
    while (chosen === 0 || this.#ports.has(chosen)) chosen = 32768 + Math.floor(Math.random() * 28232);
    this.#ports.set(chosen, listener);
    return chosen;
  }

  unbind(port: number): void {
    this.#ports.delete(port);
  }

  /** A client socket connecting to host:port: 'connect' one turn later, or an ECONNREFUSED 'error'. */
  connect(host: string, port: number): Socket {
    const client = new Socket(this.rt);
    client.connecting = true;
    this.rt.io(() => {
      if (client.destroyed) return;
      const listener = isLoopbackHost(host) ? this.#ports.get(port) : undefined;
      client.connecting = false;
      if (!listener || !reachable(listener.host, host)) {
        const where = `${host === 'localhost' ? '127.0.0.1' : host}:${port}`;
        client.destroy(nodeError(Error, 'ECONNREFUSED', `connect ECONNREFUSED ${where}`, { errno: -111, syscall: 'connect', address: host, port }));
        return;
      }
      const server = new Socket(this.rt);
      this.#clientPorts = this.#clientPorts >= 65535 ? 49152 : this.#clientPorts + 1;
      Socket.pair(this.rt, client, server, host, port, this.#clientPorts);
      listener.accept(server);
      client.emit('connect');
      client.emit('ready');
    });
    return client;
  }
}

/** A server bound to 127.0.0.1 is not reached at ::1, one bound to every address is reached everywhere. */
function reachable(bound: string, dialled: string): boolean {
  if (bound === '0.0.0.0' || bound === '::') return true;
  const v6 = (h: string) => h.includes(':');
  if (dialled === 'localhost') return true;
  return v6(bound) === v6(dialled.replace(/^\[|\]$/g, ''));
}
