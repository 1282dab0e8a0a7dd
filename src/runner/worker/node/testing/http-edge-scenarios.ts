/**
 * More scenarios for http-conformance.test.ts, each for a place where the page once differed from
 * Node: header objects, errors after a response, writeHead's array checks, bodies nobody reads,
 * socket timeouts nobody listens for, and the state right after end(). Same rules as
 * http-scenarios.ts: one actor's events in order, never a race between two actors.
 */
import { endOk, exchange, get, later, probe, resState, type Scenario } from './trace.ts';

/** A header named like an Object.prototype member: `fromEntries` makes it an own property. */
const odd = Object.fromEntries([
  ['__proto__', 'p'],
  ['constructor', 'c1'],
]) as Record<string, string>;

export const EDGE_SCENARIOS: Scenario[] = [
  exchange(
    'headers named __proto__ and constructor; headers are plain objects',
    (req, res, r) => {
      const h = req.headers;
      probe(r, 'server', 'headers', () => JSON.stringify(h, (k, v) => (k === 'host' ? 'HOST' : v)));
      probe(r, 'server', 'plain', () => Object.getPrototypeOf(h) === Object.prototype);
      // biome-ignore lint/suspicious/noPrototypeBuiltins: what is proven is that code written so works, as in Node
      probe(r, 'server', 'hasOwnProperty constructor', () => h.hasOwnProperty('constructor'));
      probe(r, 'server', 'own __proto__', () => Object.hasOwn(h, '__proto__'));
      probe(r, 'server', 'constructor', () => h.constructor);
      // biome-ignore lint/suspicious/noProto: a header named __proto__, which headersDistinct (null-prototype) keeps
      probe(r, 'server', 'distinct', () => `${Object.getPrototypeOf(req.headersDistinct)} ${JSON.stringify(req.headersDistinct.__proto__)}`);
      res.setHeader('constructor', 'srv');
      res.setHeader('__proto__', 'q');
      res.end('ok');
    },
    get({
      headers: odd,
      inspect: (res, r) => {
        probe(r, 'client', 'plain', () => Object.getPrototypeOf(res.headers) === Object.prototype);
        // biome-ignore lint/suspicious/noPrototypeBuiltins: as above, on the client's response
        probe(r, 'client', 'hasOwnProperty constructor', () => res.headers.hasOwnProperty('constructor'));
        probe(r, 'client', 'own __proto__', () => Object.hasOwn(res.headers, '__proto__'));
      },
    }),
  ),
  exchange(
    'the request is aborted by its signal after the response head arrived',
    (_q, res) => (res.writeHead(200), res.write('part')),
    get({ abortAfterResponseMs: 20 }),
  ),
  exchange(
    'the client destroys its request with an error in the middle of the body',
    (_q, res) => (res.writeHead(200), res.write('part')),
    get({ destroyAfterMs: 20, destroyWith: 'gave up' }),
  ),
  exchange('the client aborts its request before any answer', () => {}, get({ abortAfterMs: 20 })),
  exchange('the client destroys its request with an error before any answer', () => {}, get({ destroyAfterMs: 20, destroyWith: 'gave up' })),
  exchange(
    'writeHead refuses nested pairs and odd arrays once headers were set',
    (_q, res, r) => {
      const attempt = (what: string, fn: () => void) => probe(r, 'server', what, () => (fn(), 'ok'));
      res.setHeader('x-set', '1');
      attempt('one nested pair', () => res.writeHead(200, [['x-b', '2']] as unknown as string[]));
      attempt('two nested pairs', () =>
        res.writeHead(200, [
          ['x-b', '2'],
          ['x-c', '3'],
        ] as unknown as string[]),
      );
      attempt('an odd flat array', () => res.writeHead(200, ['x-b', '2', 'x-c']));
      attempt('removeHeader', () => res.removeHeader('x-set'));
      attempt('a nested pair after removeHeader', () => res.writeHead(201, [['x-d', '4']] as unknown as string[]));
      r.log('server', `sent ${res.headersSent} status ${res.statusCode} ${res.statusMessage}`);
      res.end('ok');
    },
    get(),
  ),
  exchange(
    'writeHead takes nested pairs when no header was set, and refuses an odd array',
    (_q, res, r) => {
      const attempt = (what: string, fn: () => void) => probe(r, 'server', what, () => (fn(), 'ok'));
      attempt('an odd flat array', () => res.writeHead(200, ['x-a', '1', 'x-b']));
      attempt('nested pairs', () =>
        res.writeHead(202, [
          ['x-a', '1'],
          ['x-a', '2'],
        ] as unknown as string[]),
      );
      res.end('ok');
    },
    get(),
  ),
  exchange(
    'a body that ends later, never read: the finished response drains it',
    endOk,
    get({ method: 'POST', body: 'part', keepOpen: true, endAfterMs: 20, headers: { connection: 'keep-alive' } }),
  ),
  // The client gives up after 300 ms (long after Node's server has destroyed the socket at 20 ms), so
  // a page that keeps the socket fails at once rather than at the test's time limit.
  exchange('res.setTimeout with nobody listening for timeout destroys the socket', (_q, res) => void res.setTimeout(20), get({ destroyAfterMs: 300 })),
  exchange(
    'req.setTimeout with nobody listening, a body still arriving: the socket is destroyed',
    (req) => void req.setTimeout(20),
    get({ method: 'POST', body: 'x', keepOpen: true, destroyAfterMs: 300 }),
    { consume: true },
  ),
  exchange(
    'req.setTimeout with a callback on a request already complete: not called, the socket is destroyed',
    (req, _res, r) => void req.setTimeout(20, () => r.log('server', 'req timeout')),
    get({ destroyAfterMs: 300 }),
  ),
  exchange(
    'res.setTimeout with a callback: it is called and answers, the socket stays',
    (req, res, r) => {
      req.on('timeout', () => r.log('server', 'req timeout'));
      res.setTimeout(20, () => (r.log('server', `res timeout ${resState(res)}`), res.end('late')));
    },
    get(),
  ),
  exchange(
    'writableFinished right after end() returns: false until finish, as in Node 24',
    (_q, res, r) => {
      res.write('h');
      r.log('server', `after write ${resState(res)}`);
      res.end('i');
      r.log('server', `after end ${resState(res)}`);
    },
    (env, r, port) =>
      new Promise<void>((resolve) => {
        const c = env.http.request({ host: '127.0.0.1', port, agent: false, headers: { connection: 'close' } });
        c.end();
        r.log('client', `after end finished=${c.writableFinished} ended=${c.writableEnded}`);
        c.on('finish', () => r.log('client', `finish finished=${c.writableFinished}`));
        c.on('response', (res) => res.resume());
        c.on('close', () => later(30, resolve));
      }),
  ),
];
