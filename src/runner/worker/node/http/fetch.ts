/**
 * fetch() as Node's (undici) behaves towards the page's loopback servers: the request the server
 * receives carries the headers undici adds (host, connection, accept, accept-language,
 * sec-fetch-mode, user-agent, accept-encoding), redirects are followed, the Response has the url it
 * came from, and failures look like Node's: a refused or unknown address rejects with
 * TypeError('fetch failed') whose cause is the ECONNREFUSED error; a server that drops the
 * connection first rejects with the same TypeError (cause: "other side closed") or, mid-body, errors
 * the body with TypeError('terminated'); an abort rejects with the signal's reason. Nothing leaves
 * the page: there is no other network.
 */
import { joinHeaders, nodeError, receivedRaw } from './headers.ts';
import type { Frame, Network } from './loopback.ts';
import { ConnectionPool } from './pool.ts';

const NULL_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECT = new Set([301, 302, 303, 307, 308]);

function socketError(): Error {
  const err = nodeError(Error, 'UND_ERR_SOCKET', 'other side closed');
  err.name = 'SocketError';
  return err;
}

/** Headers as given (a standalone Headers keeps the names a Request would silently drop in a browser). */
function callerHeaders(input: RequestInfo | URL, init: RequestInit | undefined): Headers {
  if (init?.headers !== undefined) return new Headers(init.headers);
  return new Headers(input instanceof Request ? input.headers : undefined);
}

interface Prepared {
  url: URL;
  method: string;
  headers: Headers;
  body: Uint8Array | undefined;
  signal: AbortSignal | undefined;
  redirect: RequestRedirect;
}

async function prepare(input: RequestInfo | URL, init: RequestInit | undefined): Promise<Prepared> {
  const request = new Request(input, init);
  const headers = callerHeaders(input, init);
  const type = request.headers.get('content-type');
  if (type !== null && !headers.has('content-type')) headers.set('content-type', type);
  const bytes = request.method === 'GET' || request.method === 'HEAD' ? undefined : new Uint8Array(await request.arrayBuffer());
  // undici sends "content-length: 0" for an empty POST, PUT or PATCH, and nothing for other methods.
  const body = bytes?.byteLength || /^(POST|PUT|PATCH)$/.test(request.method) ? bytes : undefined;
  return {
    url: new URL(request.url),
    method: request.method,
    headers,
    body,
    signal: init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined,
    redirect: init?.redirect ?? (input instanceof Request ? input.redirect : 'follow'),
  };
}

function headLines(p: Prepared): string[] {
  const host = p.url.port ? `${p.url.hostname}:${p.url.port}` : p.url.hostname;
  const raw = ['host', host, 'connection', 'keep-alive'];
  for (const [k, v] of p.headers) raw.push(k, v);
  if (p.body !== undefined && !p.headers.has('content-length')) raw.push('content-length', String(p.body.byteLength));
  const defaults: Array<[string, string]> = [
    ['accept', '*/*'],
    ['accept-language', '*'],
    ['sec-fetch-mode', 'cors'],
    ['user-agent', 'node'],
    ['accept-encoding', 'gzip, deflate'],
  ];
  for (const [k, v] of defaults) if (!p.headers.has(k)) raw.push(k, v);
  return raw;
}

/** One exchange over a kept-alive connection or a new one; resolves with the Response once its head arrived. */
function exchange(network: Network, pool: ConnectionPool, p: Prepared): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const { url, signal } = p;
    if (signal?.aborted) return reject(signal.reason);
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const key = `${url.hostname}:${port}`;
    // No TLS in the page: an https URL is as unreachable as any other address.
    const reused = url.protocol === 'http:' ? pool.take(key) : undefined;
    const socket = reused ?? network.connect(url.protocol === 'http:' ? url.hostname : `https://${url.hostname}`, port);
    let body: ReadableStreamDefaultController<Uint8Array> | undefined;
    let responded = false;
    let ended = false;
    let keepAlive = true;
    const onAbort = () => {
      detach();
      if (!responded) reject(signal!.reason);
      else if (!ended) body?.error(signal!.reason);
      ended = true;
      socket.destroy();
    };
    const onError = (err: Error) => {
      if (responded) return;
      responded = true;
      detach();
      reject(new TypeError('fetch failed', { cause: err }));
    };
    const send = () => {
      socket.send({ type: 'head', method: p.method, url: `${url.pathname}${url.search}`, raw: headLines(p) });
      if (p.body?.byteLength) socket.send({ type: 'data', chunk: p.body });
      socket.send({ type: 'end' });
    };
    const onClose = () => {
      detach();
      if (!responded) {
        responded = true;
        reject(new TypeError('fetch failed', { cause: socketError() }));
      } else if (!ended) {
        ended = true;
        body?.error(new TypeError('terminated', { cause: socketError() }));
      }
    };
    const detach = () => {
      signal?.removeEventListener('abort', onAbort);
      socket.off('error', onError);
      socket.off('connect', send);
      socket.off('close', onClose);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.on('error', onError);
    socket.on('close', onClose);
    if (reused) send();
    else socket.on('connect', send);
    socket.onFrame = (frame: Frame) => {
      if (frame.type === 'head') {
        const status = frame.status ?? 0;
        if (status < 200 || status > 599) {
          responded = true;
          socket.destroy();
          return reject(new TypeError('fetch failed', { cause: nodeError(Error, 'UND_ERR_INFO', `unsupported status ${status}`) }));
        }
        const headers = new Headers();
        const joined = joinHeaders(receivedRaw(frame.raw), Object.create(null));
        for (const [k, v] of Object.entries(joined)) for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
        keepAlive = !/\bclose\b/i.test(String(joined.connection ?? ''));
        const stream = new ReadableStream<Uint8Array>({
          start: (c) => void (body = c),
          cancel: () => {
            ended = true;
            detach();
            socket.destroy();
          },
        });
        const res = new Response(NULL_BODY.has(status) || p.method === 'HEAD' ? null : stream, { status, statusText: frame.statusMessage ?? '', headers });
        Object.defineProperty(res, 'url', { value: url.href });
        Object.defineProperty(res, 'type', { value: 'basic' });
        responded = true;
        resolve(res);
      } else if (frame.type === 'data') {
        if (!ended) body?.enqueue(frame.chunk.slice());
      } else {
        if (!ended) body?.close();
        ended = true;
        detach();
        // undici takes a connection back one turn after its response ended: a fetch started at once opens another.
        if (keepAlive) network.rt.io(() => pool.give(key, socket));
        else socket.end();
      }
    };
  });
}

export function createFetch(network: Network, passThrough: typeof fetch): typeof fetch {
  const pool = new ConnectionPool();
  const loopbackFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const href = input instanceof Request ? input.url : String(input);
    // data: and blob: URLs are read as Node reads them, without any network.
    if (/^(data|blob):/i.test(href)) return passThrough(input, init);
    let p = await prepare(input, init);
    for (let hops = 0; ; hops++) {
      const res = await exchange(network, pool, p);
      const location = res.headers.get('location');
      if (!REDIRECT.has(res.status) || location === null || p.redirect === 'manual') {
        if (hops > 0) Object.defineProperty(res, 'redirected', { value: true });
        return res;
      }
      if (p.redirect === 'error' || hops >= 20)
        throw new TypeError('fetch failed', { cause: new Error(p.redirect === 'error' ? 'unexpected redirect' : 'redirect count exceeded') });
      await res.body?.cancel();
      const toGet = res.status === 303 || ((res.status === 301 || res.status === 302) && p.method === 'POST');
      p = { ...p, url: new URL(location, p.url), ...(toGet ? { method: 'GET', body: undefined } : {}) };
    }
  };
  return loopbackFetch as typeof fetch;
}
