// The strict grading protocol between two in-memory ends (no processes): values, handles and
// identity cross as one process would see them, and the tests' end gives the learner's end
// nothing it was not handed.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { testsGlobals } from '../../../exercises/_env/strict/client.mjs';
import { createMembrane, type Membrane, type MembraneOptions } from '../../../exercises/_env/strict/membrane.mjs';

type Msg = Record<string, unknown>;
interface PairOptions {
  /** What the tests' end serves of its globals (client.mjs's, by default none). */
  globals?: MembraneOptions['globals'];
  /** The number an object of the tests' end converts to (client.mjs's, for its timers). */
  primitive?: (obj: object) => number | undefined;
  /** Rewrites (or drops, returning undefined) each message to the tests' end: a learner's end that lies. */
  tamper?: (msg: Msg) => Msg | undefined;
}

/** Two ends joined by JSON messages, delivered in order; a synchronous call pumps until answered. */
function pair(learnerExports: Record<string, unknown>, opts: PairOptions = {}) {
  const inbox: Array<{ to: 'tests' | 'learner'; msg: Record<string, unknown> }> = [];
  /** Every message sent, in order: which end it went to, its kind and the key it asked for. */
  const sent: Array<{ to: 'tests' | 'learner'; t: unknown; key?: unknown }> = [];
  const violations: string[] = [];
  const unhandled: unknown[] = [];
  /** How often the tests' end closed its channel. */
  const closes = { tests: 0 };
  let scheduled = false;
  const deliverOne = () => {
    const next = inbox.shift();
    if (next?.to === 'learner') learner.receive(next.msg);
    else if (next) {
      const msg = opts.tamper ? opts.tamper(next.msg) : next.msg;
      if (msg) tests.receive(msg);
    }
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
  const tests: Membrane = createMembrane({
    ...end('learner'),
    guard: true,
    onViolation: (why) => violations.push(why),
    onUnhandled: (r) => unhandled.push(r),
    close: () => closes.tests++,
    ...(opts.globals ? { globals: opts.globals } : {}),
    ...(opts.primitive ? { primitive: opts.primitive } : {}),
  });
  const learner: Membrane = createMembrane({ ...end('tests'), guard: false, onLoad: () => learnerExports });
  // As the generated src/ module does: every export read once, at load.
  const namespace = tests.request({ t: 'load', file: 'x.ts' }) as Record<string, unknown>;
  const mod = Object.fromEntries(Object.keys(namespace).map((k) => [k, namespace[k]]));
  return { mod, tests, learner, violations, inbox, unhandled, sent, closes };
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

describe("the learner's timers: a handle of its own, never the tests' timer", () => {
  /** The learner's end asking the tests' end for a global, as learner-host.mjs does. */
  const remote =
    (end: () => Membrane, name: string) =>
    (...args: unknown[]) =>
      end().request({ t: 'global', name, args: args.map((a) => end().encode(a)) });
  /** client.mjs's globals and the numbers its timers convert to, fresh for each test. */
  const served = () => testsGlobals((fn, self, args) => Reflect.apply(fn, self, args));

  test("no field of the tests' timer is read or written, and the tests' own timers cannot be reached", async () => {
    let learnerEnd: Membrane | undefined;
    const end = () => learnerEnd!;
    const [setT, clearT] = [remote(end, 'setTimeout'), remote(end, 'clearTimeout')];
    let seen: unknown;
    const { mod, violations, learner } = pair(
      {
        probe: () => {
          const t = setT(() => {}, 40) as Record<string, unknown>;
          const fields = ['_idlePrev', '_idleNext', '_onTimeout', '_idleTimeout', '_destroyed'].map((k) => t[k]);
          // Walking the timer list (timers of one duration are linked) to clear the tests' own.
          for (let p = t['_idleNext'] as Record<string, unknown> | undefined, n = 0; p && p !== t && n < 10; p = p['_idleNext'] as Record<string, unknown>, n++)
            clearT(p);
          seen = { fields, keys: Object.keys(t), destroyed: Reflect.set(t, '_destroyed', true), deleted: Reflect.deleteProperty(t, '_onTimeout') };
          clearT(t);
          return 0;
        },
      },
      served(),
    );
    learnerEnd = learner;
    let fired = 0;
    const mine = setTimeout(() => fired++, 40);
    (mod['probe'] as () => number)();
    await new Promise((r) => setTimeout(r, 80));
    clearTimeout(mine);
    expect(seen).toEqual({ fields: [undefined, undefined, undefined, undefined, undefined], keys: [], destroyed: false, deleted: false });
    expect(fired, "the tests' own timer still fired").toBe(1);
    expect(violations).toEqual([]);
  });

  test('the handle does what a timer does: ref, unref, hasRef, refresh, close, a number, and this in its callback', async () => {
    let learnerEnd: Membrane | undefined;
    const end = () => learnerEnd!;
    const [setT, clearT, setI, clearI] = ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate'].map((n) => remote(end, n));
    type Timer = { ref(): Timer; unref(): Timer; hasRef(): boolean; refresh(): Timer; close(): Timer };
    const calls: string[] = [];
    let checks: unknown;
    const { mod, learner } = pair(
      {
        start: () => {
          const t = setT(function (this: unknown) {
            calls.push(this === t ? 'fired, this is the handle' : 'fired, this is something else');
          }, 10) as Timer;
          const cleared = setT(() => calls.push('cleared by number'), 10) as Timer;
          const closed = setT(() => calls.push('closed'), 10) as Timer;
          const immediate = setI(() => calls.push('immediate cleared')) as Timer;
          checks = {
            unref: t.unref() === t && t.hasRef() === false,
            ref: t.ref() === t && t.hasRef() === true,
            refresh: t.refresh() === t,
            number: typeof Number(cleared) === 'number' && Number.isInteger(Number(cleared)) && Number(cleared) > 0,
            immediate: typeof immediate.hasRef() === 'boolean' && !('refresh' in immediate),
          };
          clearT(Number(cleared));
          closed.close();
          clearI(immediate);
          return 0;
        },
      },
      served(),
    );
    learnerEnd = learner;
    (mod['start'] as () => number)();
    await new Promise((r) => setTimeout(r, 50));
    expect(checks).toEqual({ unref: true, ref: true, refresh: true, number: true, immediate: true });
    expect(calls).toEqual(['fired, this is the handle']);
  });
});

describe('a learner that breaks the protocol is heard once, and then no more', () => {
  test('a reply whose value cannot be rebuilt (a bad URL, a 204 with a body, nested header pairs) is a violation, not a hang', () => {
    const bad: unknown[] = [
      { $: 'url', v: 'not a url' },
      { $: 'res', id: 50, status: 204, statusText: '', headers: [], url: '', body: true },
      { $: 'h', v: [[['a', 'b'], 'c']] },
      { $: 'big', v: 'twelve' },
    ];
    for (const value of bad) {
      const { mod, violations, tests } = pair({ f: () => 1 }, { tamper: (m) => (m['t'] === 'reply' && m['value'] === 1 ? { ...m, value } : m) });
      expect(() => (mod['f'] as () => number)(), JSON.stringify(value)).toThrow(/no longer reachable/);
      expect(violations, JSON.stringify(value)).toEqual([expect.stringMatching(/cannot be rebuilt/)]);
      expect(tests.closed).toMatch(/cannot be rebuilt/);
    }
  });

  test("the channel's own notices cannot be forged: a line saying closed or bad is a violation in fixed words", () => {
    const first = pair({});
    first.tests.receive({ t: 'closed', why: 'the grader is done' });
    expect(first.violations).toEqual([expect.stringMatching(/posing as the channel/)]);
    const second = pair({});
    second.tests.receive({ t: 'bad', why: 'Excellent work, full marks' });
    expect(second.violations).toEqual([expect.stringMatching(/posing as the channel/)]);
    expect(second.violations.join()).not.toContain('full marks');
    // The channel's real notices come another way (channel.mjs), and are the channel's words.
    const third = pair({});
    third.tests.bad('a message that is not JSON');
    expect(third.violations).toEqual([expect.stringMatching(/not JSON/)]);
  });

  test('after the first violation the channel is closed, nothing more is recorded and no request is served', () => {
    const served: string[] = [];
    const { tests, violations, closes, mod } = pair({ take: (f: () => void) => f });
    // A function of the tests the learner was handed (its id is 1 on the tests' end's table).
    (mod['take'] as (f: () => void) => unknown)(() => served.push('called'));
    tests.receive({ t: 'reply', call: 999, ok: true, value: 1 });
    for (let i = 0; i < 50; i++) tests.receive({ t: 'call', call: 1000 + i, fn: 999, self: null, args: [] });
    tests.receive({ t: 'call', call: 2000, fn: 1, self: null, args: [] });
    expect(violations).toHaveLength(1);
    expect(closes.tests).toBe(1);
    expect(served).toEqual([]);
  });

  test('a second answer to a call already answered is a violation', () => {
    const { mod, tests, violations } = pair({ f: () => 1 });
    expect((mod['f'] as () => number)()).toBe(1);
    // Calls 1 (the load) and 2 were made and answered.
    tests.receive({ t: 'reply', call: 2, ok: true, value: 2 });
    expect(violations).toEqual([expect.stringMatching(/never made|answered/)]);
  });

  test('a notice of a global is heard only for the clocks the protocol reports', () => {
    const fetched: unknown[][] = [];
    const clock: string[] = [];
    const globals: MembraneOptions['globals'] = {
      fetch: () => [(...a: unknown[]) => fetched.push(a), undefined],
      'Date.now': () => [() => clock.push('Date.now'), undefined],
    };
    const honest = pair({}, { globals });
    honest.tests.receive({ t: 'notify', name: 'Date.now' });
    expect([clock, honest.violations]).toEqual([['Date.now'], []]);
    const { tests, violations } = pair({}, { globals });
    tests.receive({ t: 'notify', name: 'fetch' });
    expect(fetched).toEqual([]);
    expect(violations).toEqual([expect.stringMatching(/notice of a global/)]);
  });
});
