// The same rules with closures and events: one state variable, the readiness answer written by
// hand, a single timer chain for the pre-stop window, the server's 'close' event to end the shutdown,
// and closeIdleConnections() after each answer once the server has stopped accepting.
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

export function serveGracefully(server: Server, { handler, drainMs, preStopMs = 0 }: GracefulOptions): Graceful {
  for (const [name, value] of [
    ['drainMs', drainMs],
    ['preStopMs', preStopMs],
  ] as const) {
    if (!(typeof value === 'number' && value >= 0 && value < Number.POSITIVE_INFINITY)) {
      throw new RangeError(`${name} must be a number of milliseconds from 0 up, not ${String(value)}`);
    }
  }
  let state: 'up' | 'leaving' | 'closed' = 'up';
  const unanswered = new Set<ServerResponse>();
  let finished: Promise<void> | undefined;

  server.on('request', (req, res) => {
    if (state === 'up') {
      unanswered.add(res);
      res.on('close', () => unanswered.delete(res));
    } else {
      res.setHeader('Connection', 'close');
    }
    // Once nothing new is accepted, a connection whose answer is done has no reason to stay.
    res.on('close', () => {
      if (state === 'closed') server.closeIdleConnections();
    });
    if (req.url === READY_PATH && req.method === 'GET') {
      const up = state === 'up';
      res.writeHead(up ? 200 : 503, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ ready: up }));
      return;
    }
    handler(req, res);
  });

  function shutdown(): Promise<void> {
    if (finished) return finished;
    state = 'leaving';
    for (const res of unanswered) if (!res.headersSent) res.setHeader('Connection', 'close');
    finished = new Promise<void>((resolve) => {
      setTimeout(() => {
        state = 'closed';
        const deadline = setTimeout(() => server.closeAllConnections(), drainMs);
        server.once('close', () => {
          clearTimeout(deadline);
          resolve();
        });
        server.close();
        server.closeIdleConnections();
      }, preStopMs);
    });
    return finished;
  }

  return { ready: () => state === 'up', shutdown };
}
