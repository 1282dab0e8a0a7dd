// D1-D9: the middleware, driven through a real node:http server on loopback (D8 in a child
// process). Each describe is one rule and runs its tests concurrently, since most of them wait on
// real timers; the rules run one after another, so a test that blocks the worker is still named
// with the right rule.
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { deadlineMiddleware } from '../src/deadline.ts';
import {
  abortedWithin,
  endIfOpen,
  frozenClock,
  get,
  isUuid,
  reached,
  runningClock,
  send,
  show,
  sleep,
  test,
  type Scope,
  type Handler,
  type Middleware,
  type Reply,
  type Served,
} from './harness.ts';
import { processProblem, startProcessCheck, type ProcessCheck } from './process-check.ts';

let processCheck: ProcessCheck;
beforeAll(() => {
  processCheck = startProcessCheck();
});
afterAll(() => processCheck.stop());

const DEFAULT = 5000;

/**
 * Sends one request and returns the budget the middleware gave it: deadlineAt - now() on the
 * injected (frozen) clock. A middleware that reads another clock breaks D2, not D1, so then the
 * budget is judged on the clock it did read, within a few milliseconds.
 */
async function budgetFor(h: Scope, headers: Record<string, string | string[]>, opts: { defaultBudgetMs?: number } = {}) {
  const clock = frozenClock();
  const defaultBudgetMs = opts.defaultBudgetMs ?? DEFAULT;
  const mw = deadlineMiddleware({ defaultBudgetMs, now: clock.now }) as Middleware;
  const server = await h.startServer(mw);
  await get(server, { headers });
  const call = server.served[0];
  const sent =
    Object.entries(headers)
      .map(([k, v]) => `${k}: ${show(v)}`)
      .join(', ') || 'no x-deadline-ms header';
  const ctx = reached(call, `with ${sent}`);
  expect(typeof ctx?.deadlineAt, `with ${sent}, req.deadline.deadlineAt was ${show(ctx?.deadlineAt)}`).toBe('number');
  const plausible = (b: number) => b > -1000 && b <= 2 * defaultBudgetMs + 1000;
  const exact = ctx.deadlineAt - clock.t;
  if (!plausible(exact)) {
    for (const base of [call!.nextAt, call!.nextAtDate]) {
      const b = ctx.deadlineAt - base;
      if (plausible(b)) return { budget: b, sent, tolerance: 250 };
    }
  }
  return { budget: exact, sent, tolerance: 0 };
}

function expectBudget(got: { budget: number; tolerance: number }, want: number, message: string) {
  const ok = got.tolerance ? Math.abs(got.budget - want) <= got.tolerance : got.budget === want;
  expect(ok, `${message} (the budget was ${Math.round(got.budget * 1000) / 1000} ms, expected ${want})`).toBe(true);
}

describe('D1 x-deadline-ms is a plain decimal integer or absent', () => {
  test.concurrent('D1 reads a plain decimal integer', async ({ h }) => {
    const values = ['250', '4999', '1'];
    const budgets = await Promise.all(values.map((value) => budgetFor(h, { 'x-deadline-ms': value })));
    for (const [i, value] of values.entries()) {
      const got = budgets[i]!;
      expectBudget(got, Number(value), `with x-deadline-ms: ${value} and defaultBudgetMs ${DEFAULT}, the value was not read as the budget`);
    }
  });

  const notBudgets: Array<[string, string | string[]]> = [
    ['"" (empty)', ''],
    ['"-5" (negative)', '-5'],
    ['"12.5" (fractional)', '12.5'],
    ['"abc"', 'abc'],
    ['"1e3" (exponent)', '1e3'],
    ['"Infinity"', 'Infinity'],
    ['"0x64" (hexadecimal)', '0x64'],
    ['"0b11" (binary)', '0b11'],
    ['"0o17" (octal)', '0o17'],
    ['"+300" (a plus sign)', '+300'],
    ['"100abc"', '100abc'],
    ['"1 000"', '1 000'],
    ['"0000000000000050" (16 digits)', '0000000000000050'],
    ['"00000000000000000000" (20 digits)', '00000000000000000000'],
    ['"300" sent twice (repeated)', ['300', '300']],
  ];

  test.concurrent('D1 reads leading zeros as decimal digits ("050" is 50)', async ({ h }) => {
    const values: Array<[string, number]> = [
      ['050', 50],
      ['0250', 250],
      ['000000000004999', 4999],
    ];
    const budgets = await Promise.all(values.map(([value]) => budgetFor(h, { 'x-deadline-ms': value })));
    for (const [i, [value, want]] of values.entries()) {
      expectBudget(
        budgets[i]!,
        want,
        `with x-deadline-ms: ${value} and defaultBudgetMs ${DEFAULT}: a leading zero is still a digit, so ${value} is the plain decimal integer ${want} (at most 15 digits), not an invalid value`,
      );
    }
  });

  test.concurrent('D1 uses the default budget when x-deadline-ms is absent', async ({ h }) => {
    const got = await budgetFor(h, {});
    expectBudget(got, DEFAULT, `without x-deadline-ms the budget must be defaultBudgetMs (${DEFAULT})`);
  });

  test.concurrent.for(notBudgets)('D1 treats x-deadline-ms: %s as absent', async ([, value], { h }) => {
    const got = await budgetFor(h, { 'x-deadline-ms': value });
    expectBudget(
      got,
      DEFAULT,
      `with ${got.sent}: that is not a plain decimal integer of at most 15 digits, so it counts as absent and the budget is defaultBudgetMs (${DEFAULT} ms)`,
    );
  });
});

describe('D2 the budget is min(incoming, defaultBudgetMs), on the injected clock', () => {
  test.concurrent('D2 keeps a smaller incoming budget', async ({ h }) => {
    const got = await budgetFor(h, { 'x-deadline-ms': '3000' });
    expectBudget(got, 3000, `with x-deadline-ms: 3000 and defaultBudgetMs ${DEFAULT}, deadlineAt was not now() + 3000`);
  });

  test.concurrent('D2 never extends the caller budget beyond defaultBudgetMs', async ({ h }) => {
    const values = ['5001', '9000', '999999999999999'];
    const budgets = await Promise.all(values.map((value) => budgetFor(h, { 'x-deadline-ms': value })));
    for (const [i, value] of values.entries()) {
      const got = budgets[i]!;
      expectBudget(got, DEFAULT, `with x-deadline-ms: ${value} and defaultBudgetMs ${DEFAULT}, the budget must be capped at ${DEFAULT}`);
    }
  });

  test.concurrent('D2 measures deadlineAt on the injected now()', async ({ h }) => {
    const clock = frozenClock(123_456.5);
    const mw = deadlineMiddleware({ defaultBudgetMs: 4000, now: clock.now }) as Middleware;
    const server = await h.startServer(mw);
    await get(server, { headers: { 'x-deadline-ms': '700' } });
    clock.t = 9_876_543;
    await get(server, {});
    const [a, b] = server.served.map((s) => s.ctx?.deadlineAt);
    expect(a, `now() returned 123456.5 and the budget was 700 ms, but deadlineAt was ${a}`).toBe(124_156.5);
    expect(b, `now() returned 9876543 and the budget was 4000 ms, but deadlineAt was ${b}`).toBe(9_880_543);
  });

  test.concurrent('D2 defaults: 10000 ms on performance.now()', async ({ h }) => {
    const mw = deadlineMiddleware() as Middleware;
    const server = await h.startServer(mw);
    const cases: Array<[string | undefined, number]> = [
      [undefined, 10_000],
      ['3000', 3000],
      ['20000', 10_000],
    ];
    for (const [i, [value, want]] of cases.entries()) {
      await get(server, { headers: value === undefined ? {} : { 'x-deadline-ms': value } });
      const call = server.served[i]!;
      const left = call.ctx?.deadlineAt - call.nextAt;
      const label = value === undefined ? 'without x-deadline-ms' : `with x-deadline-ms: ${value}`;
      expect(
        left > want - 1000 && left <= want + 1,
        `with no options and ${label}, deadlineAt - performance.now() was ${left} ms, expected about ${want} (defaults: defaultBudgetMs 10000, now performance.now)`,
      ).toBe(true);
    }
  });
});

const mw = (defaultBudgetMs = 5000) => deadlineMiddleware({ defaultBudgetMs, now: frozenClock().now }) as Middleware;

function expect504(reply: Reply, what: string) {
  expect(reply.status, `${what}: the response status was ${reply.status}, expected 504`).toBe(504);
  const type = String(reply.headers['content-type'] ?? '');
  expect(/^application\/json\s*(;|$)/i.test(type), `${what}: the 504 had content-type ${show(type || '(none)')}, expected application/json`).toBe(true);
  let body: unknown;
  try {
    body = JSON.parse(reply.body);
  } catch {
    throw new Error(`${what}: the 504 body is not JSON: ${show(reply.body.slice(0, 200))}`);
  }
  return body as Record<string, unknown>;
}

describe('D3 a budget of 0 is answered at once with 504', () => {
  test.concurrent('D3 answers x-deadline-ms: 0 with a JSON 504 and does not call next', async ({ h }) => {
    const server = await h.startServer(mw(10_000));
    const started = performance.now();
    const reply = await get(server, { headers: { 'x-deadline-ms': '0', 'x-request-id': 'order-42' } });
    const took = performance.now() - started;
    const body = expect504(reply, 'x-deadline-ms: 0');
    expect(body, `x-deadline-ms: 0: the 504 body was ${reply.body}`).toEqual({
      error: 'deadline_exceeded',
      requestId: 'order-42',
    });
    expect(took < 5000, `x-deadline-ms: 0 was answered after ${Math.round(took)} ms; answer it at once`).toBe(true);
    await sleep(30);
    const call = server.served[0]!;
    expect(
      call.nextCalls.length,
      `x-deadline-ms: 0: next() was called ${call.nextCalls.length} time(s) after the 504; a request with no time left must not reach the handler`,
    ).toBe(0);
  }, 15_000);

  test.concurrent('D3 puts the generated request id in the 504 body', async ({ h }) => {
    const server = await h.startServer(mw());
    const reply = await get(server, { headers: { 'x-deadline-ms': '0' } });
    const body = expect504(reply, 'x-deadline-ms: 0 without x-request-id');
    expect(Object.keys(body).sort(), `the 504 body was ${reply.body}; expected exactly {"error":"deadline_exceeded","requestId":"…"}`).toEqual([
      'error',
      'requestId',
    ]);
    expect(body.error, `the 504 body was ${reply.body}`).toBe('deadline_exceeded');
    expect(isUuid(body.requestId), `without x-request-id, the 504 body had requestId ${show(body.requestId)}, expected a new random UUID`).toBe(true);
  });
});

describe('D4 the request id', () => {
  const valid: Array<[string, string]> = [
    ['"abc-123"', 'abc-123'],
    ['"Order.42_b:C-z"', 'Order.42_b:C-z'],
    ['of 128 characters', 'A'.repeat(64) + 'z9.-_:'.repeat(10) + 'q'.repeat(4)],
  ];
  test.concurrent.for(valid)('D4 keeps the valid x-request-id %s', async ([, id], { h }) => {
    const server = await h.startServer(mw());
    const reply = await get(server, { headers: { 'x-request-id': id } });
    const ctx = reached(server.served[0], `with x-request-id: ${id}`);
    expect(ctx?.requestId, `with x-request-id: ${id} (${id.length} characters), req.deadline.requestId was ${show(ctx?.requestId)}`).toBe(id);
    expect(reply.headers['x-request-id'], `with x-request-id: ${id}, the response carried x-request-id ${show(reply.headers['x-request-id'])}`).toBe(id);
  });

  const invalid: Array<[string, string]> = [
    ['"" (empty)', ''],
    ['of 129 characters', 'a'.repeat(129)],
    ['"abc def" (a space)', 'abc def'],
    ['"abc/def" (a slash)', 'abc/def'],
    ['"abc,def" (a comma)', 'abc,def'],
    ['"café" (not ASCII)', 'caf\u00e9'],
    ['"<script>"', '<script>'],
  ];
  test.concurrent.for(invalid)('D4 replaces the invalid x-request-id %s with a UUID', async ([, id], { h }) => {
    const server = await h.startServer(mw());
    const reply = await get(server, { headers: { 'x-request-id': id } });
    const ctx = reached(server.served[0], `with x-request-id: ${show(id)}`);
    expect(
      isUuid(ctx?.requestId),
      `with x-request-id: ${show(id.length > 40 ? id.slice(0, 20) + '…(' + id.length + ' characters)' : id)}, req.deadline.requestId was ${show(ctx?.requestId)}; only 1 to 128 characters of [A-Za-z0-9._:-] are kept, anything else gets a new random UUID`,
    ).toBe(true);
    expect(
      reply.headers['x-request-id'],
      `the response carried x-request-id ${show(reply.headers['x-request-id'])}, but req.deadline.requestId was ${show(ctx?.requestId)}`,
    ).toBe(ctx?.requestId);
  });

  test.concurrent('D4 gives each request without an id a new random UUID and sends it back', async ({ h }) => {
    const server = await h.startServer(mw());
    const a = await get(server);
    const b = await get(server);
    reached(server.served[0], 'without x-request-id');
    const [ca, cb] = server.served.map((s) => s.ctx?.requestId);
    expect(isUuid(ca), `without x-request-id, req.deadline.requestId was ${show(ca)}, expected a UUID`).toBe(true);
    expect(ca, `two requests without x-request-id both got requestId ${show(ca)}; generate a new random UUID per request`).not.toBe(cb);
    expect(a.headers['x-request-id'], `the response carried x-request-id ${show(a.headers['x-request-id'])}, expected ${show(ca)}`).toBe(ca);
    expect(b.headers['x-request-id'], `the response carried x-request-id ${show(b.headers['x-request-id'])}, expected ${show(cb)}`).toBe(cb);
  });

  test.concurrent('D4 the 504 carries x-request-id too', async ({ h }) => {
    const server = await h.startServer(mw());
    const kept = await get(server, { headers: { 'x-deadline-ms': '0', 'x-request-id': 'trace-7' } });
    expect(kept.status).toBe(504);
    expect(kept.headers['x-request-id'], `the 504 for x-request-id: trace-7 carried x-request-id ${show(kept.headers['x-request-id'])}`).toBe('trace-7');
    const fresh = await get(server, { headers: { 'x-deadline-ms': '0', 'x-request-id': 'bad id' } });
    expect(fresh.status).toBe(504);
    const id = fresh.headers['x-request-id'];
    expect(isUuid(id), `the 504 for an invalid x-request-id carried x-request-id ${show(id)}, expected a new UUID`).toBe(true);
  });
});

describe('D5 req.deadline and next()', () => {
  test.concurrent('D5 sets req.deadline and calls next() once, synchronously', async ({ h }) => {
    const server = await h.startServer(mw());
    const reply = await get(server);
    const call = server.served[0]!;
    reached(call, 'a plain GET');
    expect(reply.status, `the response status was ${reply.status}`).toBe(200);
    await sleep(30);
    expect(call.nextCalls.length, `next() was called ${call.nextCalls.length} time(s), expected exactly once`).toBe(1);
    expect(call.nextSync, 'next() was called after the middleware had returned; call it synchronously').toBe(true);
    expect(call.nextCalls[0]![0], `next() was called with ${show(call.nextCalls[0]![0])}; call it with no error`).toBeUndefined();
    const ctx = call.ctx;
    expect(ctx, 'req.deadline was not set when next() was called').toBeTruthy();
    expect(typeof ctx.requestId, `req.deadline.requestId was ${show(ctx.requestId)}`).toBe('string');
    expect(Number.isFinite(ctx.deadlineAt), `req.deadline.deadlineAt was ${show(ctx.deadlineAt)}`).toBe(true);
    expect(ctx.signal instanceof AbortSignal, 'req.deadline.signal is not an AbortSignal').toBe(true);
    expect(typeof ctx.remaining, 'req.deadline.remaining is not a function').toBe('function');
  });

  test.concurrent('D5 calls next() only once, even when the deadline passes while the handler works', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 25, now: () => performance.now() }) as Middleware, async (_req, res) => {
      await sleep(60); // the deadline timer, set first and shorter, always fires during this
      if (!res.headersSent) res.end('late');
    });
    await get(server);
    await sleep(20);
    const call = server.served[0]!;
    expect(
      call.nextCalls.length,
      `next() was called ${call.nextCalls.length} times (arguments: ${call.nextCalls.map((a) => show(a[0])).join(', ')}); the deadline aborts the signal, it must not call next() again`,
    ).toBe(1);
  });
});

// Real timers: small budgets, generous margins (the proof runs on a loaded machine). A correct
// middleware aborts within a few ms of a disconnect and at the 50 ms deadline; one that never
// aborts fails after LATE_MS, not after the several seconds a learner would wait for each run.
const LATE_MS = 500;
/** How much earlier than its deadline a D6 abort may look (timer and clock rounding, with room to spare); one 20 ms early fails. */
const EARLY_MS = 4;
/** D6 requests per case, one after another (see there). */
const SAMPLES = 4;

/** Answers only once the signal aborts (or after 11 s), like a handler waiting on slow work. */
const untilAborted: Handler = async (req, res) => {
  await abortedWithin(req.deadline.signal, 11_000);
  endIfOpen(res);
};

function signalOf(call: Served): AbortSignal {
  const signal = reached(call, 'the request')?.signal;
  if (!(signal instanceof AbortSignal)) throw new Error('req.deadline.signal is not an AbortSignal');
  return signal;
}

describe('D6 the signal aborts at the deadline', () => {
  const cases: Array<[string, number, Record<string, string>, number]> = [
    ['x-deadline-ms: 50', 10_000, { 'x-deadline-ms': '50' }, 50],
    ['defaultBudgetMs 50 and no header', 50, {}, 50],
    ['x-deadline-ms: 60000 capped by defaultBudgetMs 50', 50, { 'x-deadline-ms': '60000' }, 50],
  ];
  test.concurrent.for(cases)(
    'D6 aborts the signal when the deadline passes (%s)',
    { timeout: 12_000 },
    async ([label, defaultBudgetMs, headers, budget], { h }) => {
      const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs, now: runningClock }) as Middleware, untilAborted);
      // A loaded machine fires timers late, which can hide an early abort but never fakes one:
      // up to SAMPLES requests one after another, and the earliest abort is judged.
      let earliest = Infinity;
      for (let n = 0; n < SAMPLES && earliest >= budget - EARLY_MS; n++) {
        send(server, { headers });
        const call = await server.request(n);
        const signal = signalOf(call);
        expect(signal.aborted, `with ${label}, the signal was already aborted when next() was called`).toBe(false);
        const at = await abortedWithin(signal, budget + LATE_MS);
        expect(at, `with ${label} (a ${budget} ms budget), the signal had not aborted ${budget + LATE_MS} ms after next()`).toBeDefined();
        // measured from when the server got the request, before the middleware set its timer
        earliest = Math.min(earliest, at! - call.receivedAt);
      }
      expect(
        earliest >= budget - EARLY_MS,
        `with ${label} (a ${budget} ms budget), the signal aborted ${Math.round(earliest)} ms after the request arrived, before the deadline; abort it when the deadline passes, not earlier`,
      ).toBe(true);
    },
  );
});

describe('D7 the signal aborts when the client goes away, and only then', () => {
  test.concurrent('D7 aborts the signal when the client disconnects', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware, untilAborted);
    const { client } = send(server);
    const call = await server.request(0);
    const signal = signalOf(call);
    await sleep(20);
    expect(signal.aborted, 'the signal aborted before the client disconnected').toBe(false);
    client.destroy();
    const at = await abortedWithin(signal, LATE_MS);
    expect(
      at,
      `the client disconnected while the handler was still working, but the signal had not aborted ${LATE_MS} ms later (the deadline was 20 s away)`,
    ).toBeDefined();
  }, 12_000);

  test.concurrent('D7 aborts the signal when the client drops the connection mid-upload', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware, untilAborted);
    const { client } = send(server, { method: 'POST', headers: { 'content-length': '100' }, body: 'partial', keepOpen: true });
    const call = await server.request(0);
    const signal = signalOf(call);
    await sleep(20);
    client.socket?.destroy();
    client.destroy();
    const at = await abortedWithin(signal, LATE_MS);
    expect(at, `the client dropped the connection while sending its body, but the signal had not aborted ${LATE_MS} ms later`).toBeDefined();
  }, 12_000);

  test.concurrent('D7 aborts the signal when the client disconnects after its body was read', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware, async (req, res, call) => {
      for await (const _chunk of req) void _chunk;
      (call as any).bodyRead = true;
      await abortedWithin(req.deadline.signal, 11_000);
      endIfOpen(res);
    });
    const { client } = send(server, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'order=42' });
    const call = await server.request(0);
    const signal = signalOf(call);
    for (let i = 0; i < 100 && !(call as any).bodyRead; i++) await sleep(10);
    await sleep(20);
    expect(signal.aborted, 'the signal aborted once the request body had been read, while the client was still waiting').toBe(false);
    client.destroy();
    const at = await abortedWithin(signal, LATE_MS);
    expect(
      at,
      `the handler had read the request body and was still working when the client disconnected, but the signal had not aborted ${LATE_MS} ms later; req 'aborted' does not fire once the body is complete: watch res 'close' (or the socket) instead`,
    ).toBeDefined();
  }, 12_000);

  const waitThenAnswer =
    (readBody: boolean): Handler =>
    async (req, res, call) => {
      if (readBody) for await (const _chunk of req) void _chunk;
      await sleep(40);
      (call as any).abortedWhileServing = req.deadline.signal.aborted;
      endIfOpen(res);
    };

  test.concurrent('D7 keeps the signal unaborted while a GET is still being served', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware, waitThenAnswer(false));
    const { reply } = send(server);
    await reply;
    const call = server.served[0] as any;
    reached(call, 'a GET');
    expect(
      call.abortedWhileServing,
      'the client was still connected and the handler was still working (40 ms in, 20 s budget), but the signal had aborted; req "close" fires once the request body is read, it is not a disconnect',
    ).toBe(false);
  }, 12_000);

  test.concurrent('D7 keeps the signal unaborted while a POST is served after its body was read', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware, waitThenAnswer(true));
    const { reply } = send(server, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
    await reply;
    const call = server.served[0] as any;
    reached(call, 'a POST');
    expect(
      call.abortedWhileServing,
      'the handler had read the request body and was still working (40 ms in, 20 s budget) with the client connected, but the signal had aborted; reading the body is not a disconnect',
    ).toBe(false);
  }, 12_000);

  test.concurrent('D7 does not abort the signal after the response finished normally', async ({ h }) => {
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 20_000 }) as Middleware);
    const { reply } = send(server);
    const r = await reply;
    const signal = signalOf(server.served[0]!);
    expect(r.status).toBe(200);
    await sleep(60);
    expect(
      signal.aborted,
      'the response had finished and the client then closed the connection, and your middleware aborted the signal (reason: ' +
        String(signal.reason) +
        '); a finished response is not a disconnect',
    ).toBe(false);
  }, 12_000);
});

describe('D9 remaining()', () => {
  test.concurrent('D9 remaining() is max(0, deadlineAt - now()) on the injected clock', async ({ h }) => {
    const clock = frozenClock(1_000_000.5);
    const seen: Array<[string, number]> = [];
    const server = await h.startServer(deadlineMiddleware({ defaultBudgetMs: 10_000, now: clock.now }) as Middleware, (req, res) => {
      const ctx = req.deadline;
      seen.push(['at the start (budget 500 ms)', ctx.remaining()]);
      clock.t += 200.25;
      seen.push(['200.25 ms later', ctx.remaining()]);
      clock.t = ctx.deadlineAt;
      seen.push(['exactly at deadlineAt', ctx.remaining()]);
      clock.t += 700;
      seen.push(['700 ms after deadlineAt', ctx.remaining()]);
      res.end('ok');
    });
    const { reply } = send(server, { headers: { 'x-deadline-ms': '500' } });
    await reply;
    reached(server.served[0], 'x-deadline-ms: 500');
    const want = [500, 299.75, 0, 0];
    expect(seen.length, 'the handler never ran').toBe(4);
    seen.forEach(([when, got], i) => {
      expect(got === want[i], `remaining() returned ${got} ${when}, expected ${want[i]} (now() is the injected clock; never below 0)`).toBe(true);
    });
  });
});

describe('D8 the middleware keeps no process alive', () => {
  test.concurrent('D8 no timer of the middleware keeps the process alive once the response has finished', async () => {
    const problem = processProblem(await processCheck.outcome);
    expect(problem === undefined, problem).toBe(true);
  }, 20_000);
});
