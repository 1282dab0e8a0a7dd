/**
 * node:http, node:net (its part HTTP code uses) and fetch for the page, on one loopback network per
 * runtime. What is covered and what is not: docs/in-page-node.md.
 */
import type { Runtime } from '../runtime.ts';
import { Agent, clientRequestClass } from './client.ts';
import { createFetch } from './fetch.ts';
import { validateHeaderName, validateHeaderValue } from './headers.ts';
import { IncomingMessage } from './incoming.ts';
import { isLoopbackHost, Network, Socket } from './loopback.ts';
import { OutgoingMessage } from './outgoing.ts';
import { serverClass, ServerResponse } from './server.ts';
import { METHODS, STATUS_CODES } from './status.ts';

export { isLoopbackHost };
export { AbortError } from './client.ts';
export { nodeError } from './headers.ts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const isIPv4 = (s: unknown) => typeof s === 'string' && IPV4.test(s);
const isIPv6 = (s: unknown) => typeof s === 'string' && s.includes(':') && /^[0-9a-f:.]+$/i.test(s);

export function createNodeHttp(rt: Runtime, passThroughFetch: typeof fetch) {
  const network = new Network(rt);
  const globalAgent = new Agent({ keepAlive: true });
  const Server = serverClass({ rt, network });
  const ClientRequest = clientRequestClass(rt, network, globalAgent);
  const http = {
    Agent,
    ClientRequest,
    IncomingMessage,
    METHODS,
    OutgoingMessage,
    STATUS_CODES,
    Server,
    ServerResponse,
    globalAgent,
    maxHeaderSize: 16384,
    createServer: (options?: unknown, listener?: unknown) => new Server(options as never, listener as never),
    request: (...args: unknown[]) => new ClientRequest(...args),
    get: (...args: unknown[]) => {
      const req = new ClientRequest(...args);
      req.end();
      return req;
    },
    validateHeaderName: (name: string) => validateHeaderName(name),
    validateHeaderValue,
    setMaxIdleHTTPParsers: () => {},
  };
  const net = {
    Socket,
    isIP: (s: unknown) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0),
    isIPv4,
    isIPv6,
  };
  return { http, net, fetch: createFetch(network, passThroughFetch) };
}

export type NodeHttp = ReturnType<typeof createNodeHttp>;
