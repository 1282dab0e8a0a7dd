/**
 * What a server and its clients see, scenario by scenario: the events each object emits, in order,
 * with the state a learner's code reads at that moment (writableFinished, headersSent, complete…).
 * The same scenarios run against Node's own node:http and fetch and against the page's loopback
 * (http-conformance.test.ts), and the two traces must be equal: that is how the page's stand-in for
 * Node is proven, event by event. Each actor's events are kept apart: which of two processes' events
 * comes first is a race in Node too, the order within one object is not.
 */
import { describeError, endOk, exchange, get, later, recorder, type Scenario, tracedFetch, tracedRequest, tracedServer, wait } from './trace.ts';
import { EDGE_SCENARIOS } from './http-edge-scenarios.ts';

export type { HttpEnv, Scenario, Trace } from './trace.ts';

export const SCENARIOS: Scenario[] = [
  exchange('answer at once', endOk, get()),
  exchange('answer after 30 ms', (_q, res) => later(30, () => res.end('ok')), get()),
  exchange('answer after 30 ms, the body read', (_q, res) => later(30, () => res.end('ok')), get(), { consume: true }),
  exchange('the client hangs up before the answer', () => {}, get({ destroyAfterMs: 20 })),
  exchange('the client hangs up, the body read', () => {}, get({ destroyAfterMs: 20 }), { consume: true }),
  exchange('the client hangs up while the body is sent', (_q, res) => (res.writeHead(200), res.write('part')), get({ destroyAfterMs: 20 })),
  exchange('the server destroys the response', (_q, res) => later(20, () => res.destroy()), get()),
  exchange('the server destroys the socket', (_q, res) => later(20, () => res.socket?.destroy()), get()),
  exchange(
    'the server destroys the socket mid-body',
    (_q, res) => (res.writeHead(200, { 'content-type': 'text/plain' }), res.write('part'), later(20, () => res.destroy())),
    get(),
  ),
  exchange(
    'a POST body, echoed',
    (req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => (body += c));
      req.on('end', () => res.end(body));
    },
    get({ method: 'POST', body: 'hello' }),
  ),
  exchange('a POST whose body never ends, the client hangs up', () => {}, get({ method: 'POST', body: 'x', keepOpen: true, destroyAfterMs: 20 }), {
    consume: true,
  }),
  exchange(
    'repeated and odd headers',
    (req, res, r) => {
      r.log('server', `headers ${JSON.stringify(req.headers, (k, v) => (k === 'host' ? 'HOST' : v))}`);
      r.log('server', `raw ${JSON.stringify(req.rawHeaders.map((h) => (h.startsWith('127.0.0.1:') ? 'HOST' : h)))}`);
      r.log('server', `distinct ${JSON.stringify(req.headersDistinct['x-deadline-ms'])}`);
      res.setHeader('X-Many', ['1', '2']);
      res.setHeader('content-type', 'text/plain');
      r.log(
        'server',
        `getHeader ${JSON.stringify(res.getHeader('x-many'))} names ${JSON.stringify(res.getHeaderNames())} has ${res.hasHeader('Content-Type')}`,
      );
      res.writeHead(201, { 'x-extra': 'e' });
      res.end();
    },
    get({ headers: { 'x-deadline-ms': ['1', '2'], 'content-type': ['a', 'b'], 'X-Spaced': '  sp  ', cookie: ['a=1', 'b=2'], 'set-cookie': ['c=1', 'd=2'] } }),
  ),
  exchange(
    'writeHead with a status message and an array of headers',
    (_q, res) => {
      res.writeHead(504, 'Too Late', ['x-a', '1', 'x-a', '2', 'content-length', '2']);
      res.end('no');
    },
    get(),
  ),
  exchange(
    'what a response refuses',
    (_q, res, r) => {
      const attempt = (what: string, fn: () => void) => {
        try {
          fn();
          r.log('server', `${what}: ok`);
        } catch (e) {
          r.log('server', `${what}: threw ${describeError(e)}`);
        }
      };
      attempt('writeHead(99)', () => res.writeHead(99));
      attempt('setHeader bad name', () => res.setHeader('bad name', 'x'));
      attempt('setHeader bad value', () => res.setHeader('x-bad', 'a\nb'));
      res.statusCode = 404;
      res.end('nope');
      attempt('setHeader after the end', () => res.setHeader('x-late', '1'));
      attempt('writeHead after the end', () => res.writeHead(200));
      attempt('end again', () => res.end());
      r.log('server', `statusCode ${res.statusCode}`);
    },
    get(),
  ),
  exchange('HEAD', (_q, res) => (res.setHeader('content-length', '5'), res.end()), get({ method: 'HEAD' })),
  exchange('204 with a body', (_q, res) => (res.writeHead(204), res.end('ignored')), get()),
  exchange(
    'fetch: what the server receives and the client reads',
    (req, res, r) => {
      r.log('server', `raw ${JSON.stringify(req.rawHeaders.map((h) => (h.startsWith('127.0.0.1:') ? 'HOST' : h)))}`);
      res.writeHead(200, { 'content-type': 'application/json', 'x-multi': ['a', 'b'] });
      res.end('{"ok":true}');
    },
    (env, r, port) => tracedFetch(env, r, `http://127.0.0.1:${port}/path?q=1`, { headers: { 'x-deadline-ms': '250' } }),
  ),
  exchange(
    'fetch: a POST body',
    (req, res, r) => {
      let body = '';
      req.on('data', (c: Uint8Array) => (body += String(c)));
      req.on('end', () => {
        r.log('server', `${req.method} ${req.headers['content-type']} ${req.headers['content-length']} ${body}`);
        res.end(body.toUpperCase());
      });
    },
    (env, r, port) => tracedFetch(env, r, `http://127.0.0.1:${port}/`, { method: 'POST', body: 'abc' }),
  ),
  exchange(
    'fetch: aborted while waiting',
    () => {},
    (env, r, port) => {
      const ac = new AbortController();
      later(20, () => ac.abort());
      return tracedFetch(env, r, `http://127.0.0.1:${port}/`, { signal: ac.signal });
    },
  ),
  exchange(
    'fetch: AbortSignal.timeout',
    () => {},
    (env, r, port) => tracedFetch(env, r, `http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(20) }),
  ),
  exchange(
    'fetch: the server destroys the socket',
    (_q, res) => later(20, () => res.socket?.destroy()),
    (env, r, port) => tracedFetch(env, r, `http://127.0.0.1:${port}/`),
  ),
  exchange(
    'fetch: aborted while reading the body',
    (_q, res) => (res.writeHead(200), res.write('part')),
    async (env, r, port) => {
      const ac = new AbortController();
      try {
        const res = await env.fetch(`http://127.0.0.1:${port}/`, { signal: ac.signal });
        r.log('fetch', `${res.status}`);
        later(20, () => ac.abort());
        await res.text();
        r.log('fetch', 'body read');
      } catch (e) {
        r.log('fetch', `rejected ${describeError(e)}`);
      }
    },
  ),
  {
    name: 'kept-alive connections: fetch and the default agent reuse theirs, close() ends the idle ones',
    async run(env) {
      const r = recorder();
      const sockets: unknown[] = [];
      const { server, url, port } = await tracedServer(env, r, (req, res, rec) => {
        if (!sockets.includes(req.socket)) sockets.push(req.socket);
        rec.log('server', `on connection ${sockets.indexOf(req.socket) + 1}`);
        res.end('ok');
      });
      await tracedFetch(env, r, url);
      await tracedFetch(env, r, url);
      const viaAgent = () =>
        new Promise<void>((resolve) => {
          const c = env.http.get({ host: '127.0.0.1', port, path: '/agent' }, (res) => {
            r.log('agent', `response ${res.statusCode} ${res.headers.connection} reused=${c.reusedSocket}`);
            res.resume();
            res.on('end', () => r.log('agent', 'end'));
          });
          c.on('close', () => (r.log('agent', 'close'), resolve()));
        });
      await viaAgent();
      await viaAgent();
      await wait(20);
      server.close(() => r.log('server', 'closed'));
      await wait(40);
      return r.trace;
    },
  },
  {
    name: 'nothing listens: fetch and http.request are refused',
    async run(env) {
      const r = recorder();
      await tracedFetch(env, r, `http://127.0.0.1:${env.closedPort}/`);
      await tracedFetch(env, r, `http://localhost:${env.closedPort}/`);
      await tracedRequest(env, r, env.closedPort);
      return r.trace;
    },
  },
  {
    name: 'listen, address, close',
    async run(env) {
      const r = recorder();
      const server = env.http.createServer((_req, res) => res.end('ok'));
      r.log('server', `listening before ${server.listening} address ${JSON.stringify(server.address())}`);
      server.on('listening', () => r.log('server', 'listening event'));
      server.on('close', () => r.log('server', 'close event'));
      server.listen(0, '127.0.0.1', () => r.log('server', 'listen callback'));
      r.log('server', `listening right after listen() ${server.listening}`);
      await wait(10);
      const { port, family, address } = server.address() as { port: number; family: string; address: string };
      r.log('server', `address ${address} ${family} port>0 ${port > 0} listening ${server.listening}`);
      const second = env.http.createServer();
      second.on('error', (e) => r.log('second', `error ${describeError(e).replace(String(port), 'PORT')}`));
      second.listen(port, '127.0.0.1');
      await wait(10);
      server.close((err) => r.log('server', `close callback ${err === undefined ? 'no error' : describeError(err)}`));
      r.log('server', `listening after close() ${server.listening}`);
      await wait(10);
      server.close((err) => r.log('server', `second close callback ${describeError(err)}`));
      await wait(10);
      return r.trace;
    },
  },
  {
    name: 'close() waits for a request in flight, closeAllConnections() does not',
    async run(env) {
      const r = recorder();
      const { server, port } = await tracedServer(env, r, (_q, res) => later(60, () => res.end('late')));
      const done = tracedRequest(env, r, port);
      await wait(20);
      server.close(() => r.log('server', 'closed'));
      await done;
      const second = await tracedServer(env, r, () => {});
      const hung = tracedRequest(env, r, second.port);
      await wait(20);
      second.server.close(() => r.log('server', 'second closed'));
      second.server.closeAllConnections();
      await hung;
      await wait(20);
      return r.trace;
    },
  },
  {
    // One process's events, in one order: code that stops waiting when its last response closes
    // (graceful-shutdown G7) must still see the server close only later, after the socket has closed
    // (libuv's close callbacks come a macrotask later, not in the same run of microtasks).
    name: 'a response closes, then its socket, then the server: each a turn after the last',
    async run(env) {
      const r = recorder();
      const line = (what: string) => r.log('timeline', what);
      const afterJobs = (what: string) =>
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => Promise.resolve())
          .then(() => line(`${what} + promise jobs`));
      const { server, port } = await tracedServer(env, r, (req, res) => {
        res.on('finish', () => line('res finish'));
        res.on('close', () => (line('res close'), afterJobs('res close')));
        req.socket.on('close', () => (line('socket close'), afterJobs('socket close')));
        later(40, () => res.end('late'));
      });
      server.on('close', () => line('server close'));
      const done = tracedRequest(env, r, port);
      await wait(15);
      server.close(() => line('close callback'));
      await done;
      await wait(20);
      return r.trace;
    },
  },
  ...EDGE_SCENARIOS,
];
