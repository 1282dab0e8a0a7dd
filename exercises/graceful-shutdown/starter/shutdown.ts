// Graceful shutdown for a node:http server. As shipped it does what most services do: on
// shutdown() it calls server.close() and hopes. Repair it by the rules in the brief (G1-G10).
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

export function serveGracefully(server: Server, opts: GracefulOptions): Graceful {
  // TODO G10: refuse a drainMs or preStopMs that is not a finite number of ms, 0 or more.
  const { handler, drainMs, preStopMs = 0 } = opts;
  void drainMs;
  void preStopMs;

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    // TODO G1: answer GET /ready yourself (200, then 503 once shutting down).
    // TODO G5: from shutdown() on, every answer says Connection: close.
    handler(req, res);
  });

  return {
    // TODO G1: not ready from the moment shutdown() is called.
    ready: () => true,
    shutdown() {
      // TODO G2-G4: keep serving for preStopMs, then stop accepting; let requests in flight finish.
      // TODO G6-G9: close what is left at the drain deadline, resolve once closed, clear your
      //             timers, and make a second call safe.
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
