/**
 * Keep-alive connections a client keeps for the next request to the same host and port, as undici
 * (fetch) and an http.Agent with keepAlive (Node's globalAgent) keep them: an idle connection is
 * unref'd (it keeps nothing alive), taken again by the next request, and dropped once the server
 * closes it (Node's servers close idle ones after keepAliveTimeout, or on close()).
 */
import type { Socket } from './loopback.ts';

export class ConnectionPool {
  #idle = new Map<string, Set<Socket>>();
  #watched = new WeakSet<Socket>();

  /** An idle connection to `key` that is still open, now ref'd again and in use. */
  take(key: string): Socket | undefined {
    const idle = this.#idle.get(key);
    for (const socket of idle ?? []) {
      idle!.delete(socket);
      if (socket.destroyed) continue;
      socket.ref();
      return socket;
    }
    return undefined;
  }

  /** Keeps a connection whose exchange is over for the next request to `key`. */
  give(key: string, socket: Socket): void {
    if (socket.destroyed) return;
    let idle = this.#idle.get(key);
    if (!idle) this.#idle.set(key, (idle = new Set()));
    idle.add(socket);
    socket.unref();
    socket.onFrame = undefined;
    if (this.#watched.has(socket)) return;
    this.#watched.add(socket);
    // An idle connection's end is nobody's error.
    socket.on('error', () => {});
    socket.once('close', () => idle.delete(socket));
  }
}
