// Graceful shutdown for a node:http server: flip readiness, keep serving through the pre-stop
// window, stop accepting, let in-flight requests finish within the drain deadline, then close
// whatever is left. The brief lists the rules G1-G10.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface GracefulOptions {
  /** The application: answers every request but GET /ready. */
  handler: Handler;
  /** Once the server has stopped accepting, how long in-flight requests may still take (ms). */
  drainMs: number;
  /** How long to keep serving, reported not ready, before the server stops accepting (ms); default 0. */
  preStopMs?: number;
}

export interface Graceful {
  /** true until shutdown() is called, false from then on. */
  ready(): boolean;
  /** Shuts the server down (once); resolves when it is closed and its last connection has ended. */
  shutdown(): Promise<void>;
}

export const READY_PATH = '/ready';

/** setTimeout runs a negative, NaN or infinite delay after 1 ms: refuse them instead. */
function checkMs(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new RangeError(`${name} must be a finite number of milliseconds, 0 or more (got ${String(value)})`);
  }
  return value;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function serveGracefully(server: Server, opts: GracefulOptions): Graceful {
  const drainMs = checkMs(opts.drainMs, 'drainMs');
  const preStopMs = opts.preStopMs === undefined ? 0 : checkMs(opts.preStopMs, 'preStopMs');
  const handler = opts.handler;
  /** shutdown() has been called */
  let stopping = false;
  /** the server has stopped accepting */
  let closing = false;
  let done: Promise<void> | undefined;
  /** Responses not closed yet: those whose head is still unsent can still say Connection: close. */
  const open = new Set<ServerResponse>();

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // From shutdown() on, every answer tells the client not to reuse its connection.
    if (stopping) res.setHeader('connection', 'close');
    open.add(res);
    res.once('close', () => open.delete(res));
    // A head sent before shutdown() promised keep-alive. During the pre-stop window the connection
    // may still carry a request (answered with Connection: close); once the server has stopped
    // accepting, end it as soon as its answer is done.
    res.once('finish', () => {
      if (closing) req.socket.end();
    });
    if (req.method === 'GET' && req.url === READY_PATH) {
      res.writeHead(stopping ? 503 : 200, { 'content-type': 'text/plain' });
      res.end(stopping ? 'shutting down' : 'ready');
      return;
    }
    handler(req, res);
  });

  async function run(): Promise<void> {
    stopping = true;
    for (const res of open) if (!res.headersSent) res.setHeader('connection', 'close');
    // The load balancer still sends traffic until it has seen /ready fail: keep serving meanwhile.
    if (preStopMs > 0) await sleep(preStopMs);
    // close() stops accepting and calls back once every connection has ended (with an error when
    // the server was not listening: then there was nothing to drain).
    closing = true;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
    try {
      await closed;
    } finally {
      clearTimeout(deadline);
    }
  }

  return {
    ready: () => !stopping,
    shutdown: () => (done ??= run()),
  };
}
