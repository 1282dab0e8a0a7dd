// The same rules, written as http-terminator and stoppable do it: a class that tracks every socket
// and how many answers each owes, closes idle sockets itself, marks responses with
// shouldKeepAlive = false, waits with timers/promises, and leaves an unref'd deadline timer behind
// instead of clearing it.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as wait } from 'node:timers/promises';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface GracefulOptions {
  handler: Handler;
  drainMs: number;
  preStopMs?: number;
}

export interface Graceful {
  ready(): boolean;
  shutdown(): Promise<void>;
}

export const READY_PATH = '/ready';

class GracefulServer implements Graceful {
  readonly #server: Server;
  readonly #handler: Handler;
  readonly #drainMs: number;
  readonly #preStopMs: number;
  /** every open socket, with the number of answers it still owes */
  readonly #owed = new Map<Socket, number>();
  readonly #unsent = new Set<ServerResponse>();
  #phase: 'serving' | 'pre-stop' | 'draining' = 'serving';
  #stopped: Promise<void> | undefined;

  constructor(server: Server, opts: GracefulOptions) {
    this.#server = server;
    this.#handler = opts.handler;
    this.#drainMs = GracefulServer.delay(opts.drainMs, 'drainMs');
    this.#preStopMs = opts.preStopMs === undefined ? 0 : GracefulServer.delay(opts.preStopMs, 'preStopMs');
    server.on('connection', (socket: Socket) => {
      this.#owed.set(socket, 0);
      socket.once('close', () => this.#owed.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.#serve(req, res));
  }

  static delay(value: unknown, name: string): number {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
    throw new RangeError(`${name}: expected a finite number of milliseconds, 0 or more, got ${String(value)}`);
  }

  ready(): boolean {
    return this.#phase === 'serving';
  }

  shutdown(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  #serve(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    this.#owed.set(socket, (this.#owed.get(socket) ?? 0) + 1);
    if (this.#phase !== 'serving') res.shouldKeepAlive = false;
    else this.#unsent.add(res);
    res.once('finish', () => {
      this.#unsent.delete(res);
      const owed = (this.#owed.get(socket) ?? 1) - 1;
      this.#owed.set(socket, owed);
      if (owed === 0 && this.#phase === 'draining') socket.end();
    });
    res.once('close', () => this.#unsent.delete(res));
    if (req.method === 'GET' && req.url === READY_PATH) {
      res.statusCode = this.ready() ? 200 : 503;
      res.setHeader('content-type', 'text/plain');
      res.end(this.ready() ? 'ready\n' : 'not ready\n');
      return;
    }
    this.#handler(req, res);
  }

  async #stop(): Promise<void> {
    this.#phase = 'pre-stop';
    for (const res of this.#unsent) if (!res.headersSent) res.shouldKeepAlive = false;
    this.#unsent.clear();
    await wait(this.#preStopMs);
    this.#phase = 'draining';
    const closed = new Promise<void>((resolve) => this.#server.once('close', () => resolve()));
    this.#server.close();
    for (const [socket, owed] of this.#owed) if (owed === 0) socket.destroy();
    setTimeout(() => {
      for (const socket of this.#owed.keys()) socket.destroy();
    }, this.#drainMs).unref();
    await closed;
  }
}

export function serveGracefully(server: Server, opts: GracefulOptions): Graceful {
  return new GracefulServer(server, opts);
}
