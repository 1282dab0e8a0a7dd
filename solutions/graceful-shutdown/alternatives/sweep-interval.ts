// The same rules with a sweep: once the server has stopped accepting, an interval closes whatever
// connection has gone idle (a kept-alive one whose answer just ended), and is stopped with the
// deadline timer as soon as close() calls back. Connection: close is decided in writeHead's place:
// each response checks the flag when its head is about to go.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';

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
const SWEEP_MS = 20;

function milliseconds(name: string, value: unknown, fallback?: number): number {
  if (value === undefined && fallback !== undefined) return fallback;
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0 || value === Number.POSITIVE_INFINITY) {
    throw new RangeError(`${name}: ${String(value)} is not a delay`);
  }
  return value;
}

export function serveGracefully(server: Server, opts: GracefulOptions): Graceful {
  const drainMs = milliseconds('drainMs', opts.drainMs);
  const preStopMs = milliseconds('preStopMs', opts.preStopMs, 0);
  let shuttingDown = false;
  let result: Promise<void> | undefined;

  server.on('request', (req, res) => {
    // The flag is read when the head goes out, so an answer begun before shutdown() but sent
    // after it says Connection: close too.
    const writeHead = res.writeHead;
    res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
      if (shuttingDown && !this.headersSent) this.setHeader('connection', 'close');
      return writeHead.apply(this, args);
    } as ServerResponse['writeHead'];
    if (req.method === 'GET' && req.url === READY_PATH) {
      res.statusCode = shuttingDown ? 503 : 200;
      res.end(shuttingDown ? 'draining' : 'ok');
      return;
    }
    opts.handler(req, res);
  });

  async function drain(): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, preStopMs));
    let sweep: ReturnType<typeof setInterval> | undefined;
    let deadline: ReturnType<typeof setTimeout> | undefined;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
      sweep = setInterval(() => server.closeIdleConnections(), SWEEP_MS);
      deadline = setTimeout(() => server.closeAllConnections(), drainMs);
    });
    clearInterval(sweep);
    clearTimeout(deadline);
  }

  return {
    ready: () => !shuttingDown,
    shutdown() {
      if (!result) {
        shuttingDown = true;
        result = drain();
      }
      return result;
    },
  };
}
