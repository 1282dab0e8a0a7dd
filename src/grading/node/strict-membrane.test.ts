// The strict grading protocol between two in-memory ends (no processes): values, handles and
// identity cross as one process would see them, and the tests' end gives the learner's end
// nothing it was not handed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { createMembrane, type Membrane } from '../../../exercises/_env/strict/membrane.mjs';

/** Two ends joined by JSON messages, delivered in order; a synchronous call pumps until answered. */
function pair(learnerExports: Record<string, unknown>) {
  const inbox: Array<{ to: 'tests' | 'learner'; msg: Record<string, unknown> }> = [];
  /** Every message sent, in order: which end it went to, its kind and the key it asked for. */
  const sent: Array<{ to: 'tests' | 'learner'; t: unknown; key?: unknown }> = [];
  const violations: string[] = [];
  const unhandled: unknown[] = [];
  let scheduled = false;
  const deliverOne = () => {
    const next = inbox.shift();
    if (next) (next.to === 'tests' ? tests : learner).receive(next.msg);
    return next !== undefined;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      while (deliverOne());
    });
  };
  const end = (to: 'tests' | 'learner') => ({
    send: (msg: object) => {
      sent.push({ to, t: (msg as { t?: unknown }).t, key: (msg as { key?: unknown }).key });
      inbox.push({ to, msg: JSON.parse(JSON.stringify(msg)) as Record<string, unknown> });
      schedule();
    },
    waitUntil: (done: () => boolean) => {
      while (!done()) if (!deliverOne()) throw new Error('deadlock: nothing left to deliver');
    },
  });
  const tests: Membrane = createMembrane({ ...end('learner'), guard: true, onViolation: (why) => violations.push(why), onUnhandled: (r) => unhandled.push(r) });
  const learner: Membrane = createMembrane({ ...end('tests'), guard: false, onLoad: () => learnerExports });
  // As the generated src/ module does: every export read once, at load.
  const namespace = tests.request({ t: 'load', file: 'x.ts' }) as Record<string, unknown>;
  const mod = Object.fromEntries(Object.keys(namespace).map((k) => [k, namespace[k]]));
  return { mod, tests, learner, violations, inbox, unhandled, sent };
}

describe('values cross as copies, functions and objects with behaviour as handles', () => {
  test('numbers, dates, URLs, headers, maps and nested data keep their values', () => {
    const { mod } = pair({ echo: (v: unknown) => v });
    const echo = mod['echo'] as (v: unknown) => unknown;
    for (const v of [NaN, -0, Infinity, undefined, null, 10n, 'é']) expect(Object.is(echo(v), v), String(v)).toBe(true);
    expect(echo(new Date(5))).toEqual(new Date(5));
    expect(String(echo(new URL('https://a.test/x?y=1')))).toBe('https://a.test/x?y=1');
    expect((echo(new Headers({ 'retry-after': '2' })) as Headers).get('Retry-After')).toBe('2');
    expect(echo(new Map([[1, { a: [1, 2] }]]))).toEqual(new Map([[1, { a: [1, 2] }]]));
  });

  test('a synchronous function that calls back stays synchronous', () => {
    const { mod } = pair({ twice: (r: () => number) => r() + r() });
    let n = 0;
    expect((mod['twice'] as (r: () => number) => number)(() => ++n)).toBe(3);
  });

  test('an array the learner sorts in place is sorted for the tests too', () => {
    const { mod } = pair({ sortIt: (a: number[]) => a.sort((x, y) => x - y) && a.length });
    const samples = [3, 1, 2];
    (mod['sortIt'] as (a: number[]) => number)(samples);
    expect(samples).toEqual([1, 2, 3]);
  });

  test('class instances keep their state, methods and instanceof', () => {
    class Bucket {
      tokens = 2;
      trySpend() {
        return this.tokens >= 1 ? (this.tokens--, true) : false;
      }
    }
    const { mod } = pair({ Bucket, make: () => new Bucket() });
    const B = mod['Bucket'] as new () => { trySpend(): boolean; tokens: number };
    const b = new B();
    expect(b).toBeInstanceOf(B);
    expect([b.trySpend(), b.trySpend(), b.trySpend()]).toEqual([true, true, false]);
    expect(b.tokens).toBe(0);
  });

  test("errors keep their class, fields and cause; the tests' own error comes back as itself", async () => {
    class RetryError extends Error {
      constructor(
        readonly reason: string,
        opts?: { cause?: unknown },
      ) {
        super(reason, opts);
        this.name = 'RetryError';
      }
    }
    const { mod } = pair({
      RetryError,
      run: async (f: () => Promise<unknown>) => f().catch((e: unknown) => Promise.reject(new RetryError('not-retryable', { cause: e }))),
    });
    const mine = new RangeError('bad range');
    const err = (await (mod['run'] as (f: () => Promise<unknown>) => Promise<unknown>)(() => Promise.reject(mine)).catch((e: unknown) => e)) as RetryError;
    expect(err).toBeInstanceOf(mod['RetryError'] as typeof RetryError);
    expect(err).toBeInstanceOf(Error);
    expect(err.reason).toBe('not-retryable');
    expect(err.name).toBe('RetryError');
    expect(err.cause).toBe(mine);
  });

  test('an abort crosses; a Response keeps its identity and its body is read only when asked', async () => {
    const { mod } = pair({
      watch: (s: AbortSignal) => new Promise((resolve) => s.addEventListener('abort', () => resolve(String((s.reason as Error).name)))),
      pass: async (res: Response) => (res.status === 503 ? res : new Response('mine')),
    });
    const ac = new AbortController();
    const seen = (mod['watch'] as (s: AbortSignal) => Promise<string>)(ac.signal);
    ac.abort();
    expect(await seen).toBe('AbortError');
    const res = new Response('busy', { status: 503 });
    expect(await (mod['pass'] as (r: Response) => Promise<Response>)(res)).toBe(res);
    expect(await res.text()).toBe('busy');
    expect(await (await (mod['pass'] as (r: Response) => Promise<Response>)(new Response('x'))).text()).toBe('mine');
  });
});

describe("the learner's unhandled rejections", () => {
  test("reach the tests' side, with the error's class", async () => {
    const { learner, unhandled } = pair({});
    learner.unhandled(new TypeError('lost'));
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toHaveLength(1);
    expect(unhandled[0]).toBeInstanceOf(TypeError);
    expect((unhandled[0] as Error).message).toBe('lost');
  });
});

describe("the tests' end gives away nothing it was not handed", () => {
  test('no constructor, prototype or language built-in is reachable through a handed object', () => {
    let reached: unknown = 'nothing';
    const { mod } = pair({
      probe: (opts: Record<string, unknown>) =>
        (
          // biome-ignore lint/suspicious/noProto: reading __proto__ through the membrane is the attack under test
          (reached = [opts['constructor'], opts['__proto__'], opts['hasOwnProperty'] === Object.prototype.hasOwnProperty ? 'local' : 'remote']), 0
        ),
    });
    (mod['probe'] as (o: object) => number)({ now: () => 1 });
    expect(reached).toEqual([undefined, undefined, 'local']);
  });

  test('an object answering asymmetricMatch cannot make toEqual pass', () => {
    const { mod } = pair({ forged: () => ({ asymmetricMatch: () => true }), data: () => JSON.parse('{"asymmetricMatch":1,"a":2}') });
    expect((mod['forged'] as () => object)()).not.toEqual({ timeoutMs: 250 });
    expect((mod['data'] as () => object)()).toEqual({ a: 2 });
  });

  test('a call of a function never handed out, or an answer to no call, ends the channel and is reported', () => {
    const { tests, learner, violations } = pair({});
    void learner;
    tests.receive({ t: 'call', call: 1, fn: 999, self: null, args: [] });
    expect(violations[0]).toMatch(/never sent/);
    expect(tests.closed).toMatch(/never sent/);
    const second = pair({});
    second.tests.receive({ t: 'reply', call: 77, ok: true, value: true });
    expect(second.violations[0]).toMatch(/never made/);
  });

  test('a value over the size limit becomes an error, and the tests report it', () => {
    const { mod, violations } = pair({ huge: () => 'x'.repeat(9 * 1024 * 1024) });
    expect(() => (mod['huge'] as () => string)()).toThrow(/too large/);
    expect(violations.join()).toMatch(/size limit/);
  });
});

describe('what a handle brings along is read without a round trip', () => {
  const gets = (sent: Array<{ to: string; t: unknown; key?: unknown }>, to: string) => sent.filter((m) => m.to === to && m.t === 'get').map((m) => m.key);

  test("the fields of the tests' options object: read by the learner without asking, missing ones undefined", () => {
    const { mod, sent } = pair({
      read: (o: Record<string, unknown>) => [o['maxAttempts'], (o['now'] as () => number)(), o['label'], o['budget'], o['idempotent']],
    });
    const opts = { maxAttempts: 3, now: () => 42, label: 'x', budget: undefined };
    expect((mod['read'] as (o: object) => unknown[])(opts)).toEqual([3, 42, 'x', undefined, undefined]);
    expect(gets(sent, 'tests'), 'property reads the learner asked the tests for').toEqual([]);
  });

  test('a field that is not cheap to send (data the copy would carry whole) is still asked for, and correct', () => {
    const { mod, sent } = pair({ read: (o: Record<string, unknown>) => (o['history'] as number[]).length });
    expect((mod['read'] as (o: object) => number)({ history: [1, 2, 3], now: () => 0 })).toBe(3);
    expect(gets(sent, 'tests')).toEqual(['history']);
  });

  test('a field set through the handle is asked for again, and sees the change', () => {
    const { mod, sent } = pair({
      bump: (o: Record<string, unknown>) => {
        o['tries'] = (o['tries'] as number) + 1;
        return [o['tries'], o['absent']];
      },
    });
    const opts = { tries: 1, now: () => 0 };
    expect((mod['bump'] as (o: object) => unknown[])(opts)).toEqual([2, undefined]);
    expect(opts.tries, "the tests' own object changed").toBe(2);
    expect(gets(sent, 'tests')).toEqual(['tries', 'absent']);
  });

  test('an object crossing again brings its fields as they are now', () => {
    const { mod } = pair({ read: (o: Record<string, unknown>) => o['limit'] });
    const opts = { limit: 1, now: () => 0 };
    const read = mod['read'] as (o: object) => unknown;
    expect(read(opts)).toBe(1);
    opts.limit = 5;
    expect(read(opts)).toBe(5);
  });

  test("the methods of the learner's class are read without asking; its state still is asked for", () => {
    class Budget {
      tokens = 2;
      trySpend() {
        return this.tokens >= 1 ? (this.tokens--, true) : false;
      }
    }
    const { mod, sent } = pair({ make: () => new Budget() });
    const b = (mod['make'] as () => Budget)();
    expect([b.trySpend(), b.trySpend(), b.trySpend()]).toEqual([true, true, false]);
    expect(b.tokens).toBe(0);
    expect(gets(sent, 'learner'), 'property reads the tests asked the learner for').toEqual(['tokens']);
  });

  test("the tests' end takes nothing it would refuse to ask for: a matcher hook sent as a known field is dropped", () => {
    const { tests, violations } = pair({});
    const mirror = tests.decode({ $: 'r', id: 7, f: { asymmetricMatch: { $: 'f', id: 8, name: 'x', length: 1 }, ok: 1 }, m: {} }) as Record<string, unknown>;
    expect(mirror['ok']).toBe(1);
    expect(mirror['asymmetricMatch']).toBeUndefined();
    expect(() => tests.decode({ $: 'r', id: 9, f: [1, 2] })).toThrow(/known fields/);
    expect(violations.at(-1)).toMatch(/known fields that are not an object/);
  });
});

describe("a learner's http.Server crosses as a stand-in server whose requests reach the learner's", () => {
  /** Listens on loopback like the suites do; closed at the end of the test. */
  async function listen(server: http.Server, cleanup: Array<() => void>) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      server.closeAllConnections();
      server.close();
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const close of cleanup.splice(0)) close();
  });

  test('the tests get a real http.Server; the learner handler sees the method, path, body and every header as sent', async () => {
    let seen: { method?: string; url?: string; deadline?: unknown; body: string } | undefined;
    const learnerServer = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        seen = { method: req.method, url: req.url, deadline: req.headers['x-deadline-ms'], body };
        res.writeHead(201, { 'content-type': 'application/json', 'x-from': 'learner' });
        res.end('{"ok":true}');
      });
    });
    const { mod } = pair({ make: () => learnerServer });
    const server = (mod['make'] as () => unknown)();
    expect(server).toBeInstanceOf(http.Server);
    expect(server).not.toBe(learnerServer);
    const url = await listen(server as http.Server, cleanup);
    const answer = await fetch(`${url}/job?x=1`, {
      method: 'POST',
      body: 'hello',
      headers: [
        ['x-deadline-ms', '300'],
        ['x-deadline-ms', '200'],
      ],
    });
    expect([answer.status, answer.headers.get('x-from'), await answer.text()]).toEqual([201, 'learner', '{"ok":true}']);
    // The header twice reaches the learner joined, as one process's server would see it.
    expect(seen).toEqual({ method: 'POST', url: '/job?x=1', deadline: '300, 200', body: 'hello' });
  });

  test("a caller that hangs up closes the learner's response; a learner that hangs up drops the caller's connection", async () => {
    let closedUnfinished = false;
    let received = 0;
    const learnerServer = http.createServer((req, res) => {
      received++;
      if (req.url === '/drop') return void res.socket?.destroy();
      res.on('close', () => (closedUnfinished = !res.writableFinished));
    });
    const { mod } = pair({ make: () => learnerServer });
    const server = (mod['make'] as () => http.Server)();
    const finishedOnTestsSide: boolean[] = [];
    server.on('request', (_req, res: http.ServerResponse) => res.once('close', () => finishedOnTestsSide.push(res.writableFinished)));
    const url = await listen(server, cleanup);
    const controller = new AbortController();
    const call = fetch(`${url}/hang`, { signal: controller.signal }).catch((e: Error) => e.name);
    await vi.waitFor(() => expect(received, "the learner's server got the request").toBe(1), { timeout: 1000 });
    controller.abort();
    expect(await call).toBe('AbortError');
    await vi.waitFor(() => expect(closedUnfinished, "the learner's response closed before it finished").toBe(true), { timeout: 1000 });
    expect(finishedOnTestsSide).toEqual([false]);
    const dropped = await fetch(`${url}/drop`).then(
      () => 'answered',
      (e: Error) => e.name,
    );
    expect(dropped).toBe('TypeError');
    expect(finishedOnTestsSide).toEqual([false, false]);
  });

  test("the learner's connections to loopback are made from the tests' end, refused ones fail as refused", async () => {
    const { learner } = pair({});
    const target = http.createServer((req, res) => res.end(`hello ${req.url}`));
    const url = await listen(target, cleanup);
    const port = Number(new URL(url).port);
    const get = (to: number) =>
      new Promise<string>((resolve) => {
        const request = http.request({ host: '127.0.0.1', port: to, path: '/from-learner', createConnection: () => learner.dial('127.0.0.1', to) }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c));
          res.on('end', () => resolve(body));
        });
        request.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
        request.end();
      });
    expect(await get(port)).toBe('hello /from-learner');
    // A port nothing listens on (the one just closed): the error a learner's code would get in one process.
    const closed = http.createServer();
    const closedPort = Number(new URL(await listen(closed, [])).port);
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await get(closedPort)).toBe('ECONNREFUSED');
  });

  test("the tests' end refuses connections the learner opens or bytes for connections never opened", () => {
    const { tests, violations } = pair({});
    tests.receive({ t: 'hc', conn: 1, srv: 1 });
    expect(violations.at(-1)).toMatch(/connection opened by the learner/);
    const second = pair({});
    second.tests.receive({ t: 'hb', conn: 99, b64: 'AA==' });
    expect(second.violations.at(-1)).toMatch(/never opened/);
    expect(() => second.tests.request({ t: 'load', file: 'x.ts' })).toThrow(/no longer reachable/);
    const third = pair({});
    third.tests.receive({ t: 'hd', conn: -1, host: '10.0.0.1', port: 80 });
    expect(third.violations.at(-1)).toMatch(/not a loopback port/);
  });
});
