/**
 * The tracing the HTTP scenarios share (http-scenarios.ts): a recorder of each actor's events, with
 * the state a learner's code reads at each, and a traced server, http.request and fetch.
 */
import type * as NodeHttp from 'node:http';

export interface HttpEnv {
  http: typeof NodeHttp;
  fetch: typeof globalThis.fetch;
  /** A port nothing listens on. */
  closedPort: number;
}

export type Trace = Record<string, string[]>;

export interface Recorder {
  trace: Trace;
  log(actor: string, line: string): void;
  watch(actor: string, emitter: NodeJS.EventEmitter, events: string[], state?: () => string): void;
}

export function recorder(): Recorder {
  const trace: Trace = {};
  const log = (actor: string, line: string) => void (trace[actor] ??= []).push(line);
  return {
    trace,
    log,
    watch(actor, emitter, events, state) {
      for (const event of events) {
        emitter.on(event, (arg: unknown) => {
          const err = event === 'error' ? ` ${describeError(arg)}` : '';
          log(actor, `${event}${err}${state ? ` ${state()}` : ''}`);
        });
      }
    },
  };
}

export function describeError(e: unknown): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: unknown } | undefined;
  if (!err) return String(e);
  const cause = err.cause === undefined ? '' : ` (cause: ${describeError(err.cause)})`;
  return `${err.name ?? ''}${err.code ? `[${err.code}]` : ''}: ${err.message}${cause}`;
}

/** Logs what `read` returns, or what it throws (so a page that throws where Node does not still answers). */
export function probe(r: Recorder, actor: string, what: string, read: () => unknown): void {
  try {
    r.log(actor, `${what}: ${String(read())}`);
  } catch (e) {
    r.log(actor, `${what}: threw ${describeError(e)}`);
  }
}

export const resState = (res: NodeHttp.ServerResponse) =>
  `sent=${res.headersSent} ended=${res.writableEnded} finished=${res.writableFinished} destroyed=${res.destroyed} closed=${res.closed}`;
export const socketState = (s: NodeHttp.IncomingMessage['socket']) =>
  `closed=${s.closed} ended=${s.writableEnded} readEnded=${s.readableEnded} errored=${s.errored ? describeError(s.errored) : s.errored} destroyed=${s.destroyed}`;
export const reqState = (req: NodeHttp.IncomingMessage) => `complete=${req.complete} destroyed=${req.destroyed}`;
export const REQ_EVENTS = ['end', 'close', 'aborted', 'error'];
export const RES_EVENTS = ['finish', 'close', 'error'];

export const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export type Handler = (req: NodeHttp.IncomingMessage, res: NodeHttp.ServerResponse, r: Recorder) => void;

/** A server whose every request and response is traced, the handler run as `handle` says. */
export async function tracedServer(env: HttpEnv, r: Recorder, handle: Handler, opts: { consume?: boolean } = {}) {
  const server = env.http.createServer((req, res) => {
    const n = (r.trace.server?.filter((l) => l.startsWith('request')).length ?? 0) + 1;
    r.log('server', `request ${n} ${req.method} ${req.url} ${reqState(req)}`);
    r.watch('req', req, REQ_EVENTS, () => reqState(req));
    r.watch('res', res, RES_EVENTS, () => resState(res));
    r.watch('socket', req.socket, ['end', 'close'], () => socketState(req.socket));
    if (opts.consume) req.on('data', (c: unknown) => r.log('req', `data ${String(c)}`));
    handle(req, res, r);
  });
  // Only the first: undici sometimes opens a spare connection after an abort, which carries nothing.
  server.once('connection', () => r.log('server', 'connection'));
  server.on('close', () => r.log('server', 'close'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number; address: string; family: string };
  r.log('server', `listening ${address.address} ${address.family} ${typeof address.port}`);
  return { server, port: address.port, url: `http://127.0.0.1:${address.port}` };
}

export interface ClientOpts {
  method?: string;
  path?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  keepOpen?: boolean;
  /** ms after sending when the client destroys its request */
  destroyAfterMs?: number;
  /** ms after sending when the client calls its request's (deprecated) abort() */
  abortAfterMs?: number;
  /** What the client destroys its request with (nothing: a plain destroy()). */
  destroyWith?: string;
  /** ms after the response's head arrived when the request's AbortSignal aborts */
  abortAfterResponseMs?: number;
  /** ms after sending when the client ends a request it sent with keepOpen */
  endAfterMs?: number;
  /** Logs what the client's code can read of the response when it arrives. */
  inspect?: (res: NodeHttp.IncomingMessage, r: Recorder) => void;
}

/** An http.request on its own connection, every event traced; resolves once it closed. */
export function tracedRequest(env: HttpEnv, r: Recorder, port: number, opts: ClientOpts = {}): Promise<void> {
  return new Promise<void>((resolve) => {
    const ac = new AbortController();
    const c = env.http.request({
      host: '127.0.0.1',
      port,
      path: opts.path ?? '/',
      method: opts.method ?? 'GET',
      agent: false,
      headers: { connection: 'close', ...opts.headers },
      ...(opts.abortAfterResponseMs === undefined ? {} : { signal: ac.signal }),
    });
    r.watch('client', c, ['finish', 'abort', 'error', 'close'], () => `destroyed=${c.destroyed} closed=${c.closed}`);
    c.on('response', (res) => {
      r.log('client', `response ${res.statusCode} ${res.statusMessage} ${JSON.stringify(res.headers, (k, v) => (k === 'date' ? 'DATE' : v))}`);
      r.watch('response', res, ['end', 'close', 'aborted', 'error'], () => `complete=${res.complete}`);
      res.setEncoding('utf8');
      res.on('data', (d: string) => r.log('response', `data ${d}`));
      opts.inspect?.(res, r);
      if (opts.abortAfterResponseMs !== undefined) later(opts.abortAfterResponseMs, () => ac.abort());
    });
    c.on('close', () => setTimeout(resolve, 30));
    if (opts.body !== undefined) c.write(opts.body);
    if (opts.keepOpen) c.flushHeaders();
    else c.end();
    if (opts.abortAfterMs !== undefined) later(opts.abortAfterMs, () => c.abort());
    if (opts.endAfterMs !== undefined) later(opts.endAfterMs, () => c.end());
    const reason = opts.destroyWith === undefined ? undefined : new Error(opts.destroyWith);
    if (opts.destroyAfterMs !== undefined) later(opts.destroyAfterMs, () => c.destroy(reason));
  });
}

export async function tracedFetch(env: HttpEnv, r: Recorder, url: string, init?: RequestInit): Promise<void> {
  try {
    const res = await env.fetch(url, init);
    const headers = [...res.headers].filter(([k]) => k !== 'date');
    r.log('fetch', `${res.status} ${res.statusText} ok=${res.ok} ${JSON.stringify(headers)}`);
    r.log('fetch', `body ${await res.text()}`);
  } catch (e) {
    r.log('fetch', `rejected ${describeError(e)}`);
  }
}

export interface Scenario {
  name: string;
  run(env: HttpEnv): Promise<Trace>;
}

/** Runs one server + client exchange and closes everything it opened. */
export function exchange(
  name: string,
  handle: Handler,
  client: (env: HttpEnv, r: Recorder, port: number) => Promise<void>,
  opts: { consume?: boolean } = {},
): Scenario {
  return {
    name,
    async run(env) {
      const r = recorder();
      const { server, port } = await tracedServer(env, r, handle, opts);
      await client(env, r, port);
      await wait(40);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // The sockets' 'close' comes a turn after the server's (libuv's close callbacks): let it in.
      await wait(20);
      return r.trace;
    },
  };
}

export const get =
  (opts: ClientOpts = {}) =>
  (env: HttpEnv, r: Recorder, port: number) =>
    tracedRequest(env, r, port, opts);
export const later = (ms: number, fn: () => void) => void setTimeout(fn, ms);
export const endOk: Handler = (_req, res) => res.end('ok');
