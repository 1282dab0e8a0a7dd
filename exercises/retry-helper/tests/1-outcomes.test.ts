import { describe, expect, test } from 'vitest';
import { fetchWithRetry, RetryError } from '../src/retry.ts';
import { clock, rejection, recordingSleep, scriptedFetch, settles, URL_, type Step } from './helpers.ts';

function setup(steps: Step[]) {
  const c = clock(0);
  const f = scriptedFetch(steps);
  const s = recordingSleep(c);
  const opts = { deadlineAt: 1_000_000, now: c.now, random: () => 0.5, sleep: s.sleep, fetch: f.fetch };
  return { c, f, s, opts };
}

describe('outcomes', () => {
  test('R1 returns a 200 at once with a single attempt', async () => {
    const { f, opts } = setup([200]);
    const res = await fetchWithRetry(URL_, undefined, opts);
    expect(res.status, 'status of the returned response').toBe(200);
    expect(await res.text(), 'body of the returned response').toBe('status 200');
    expect(f.calls.length, 'fetch calls after a 200').toBe(1);
  });

  test('R1 returns any 2xx (201, 204) without another attempt', async () => {
    for (const status of [201, 204]) {
      const { f, opts } = setup([status, 200]);
      const res = await fetchWithRetry(URL_, undefined, opts);
      expect(res.status, `status returned after a ${status}`).toBe(status);
      expect(f.calls.length, `fetch calls after a ${status}`).toBe(1);
    }
  });

  test('R2 retries 408, 429, 502, 503 and 504', async () => {
    for (const status of [408, 429, 502, 503, 504]) {
      const { f, opts } = setup([status, 200]);
      const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome after a ${status} then a 200`).toBe(200);
      expect(f.calls.length, `fetch calls after a ${status} then a 200`).toBe(2);
    }
  });

  test('R2 retries a network failure (fetch rejects with a TypeError)', async () => {
    const { f, opts } = setup([new TypeError('fetch failed'), 200]);
    const res = await fetchWithRetry(URL_, undefined, opts).catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome after a TypeError then a 200').toBe(200);
    expect(f.calls.length, 'fetch calls').toBe(2);
  });

  test('R2 retries after the attempt timeout fires', async () => {
    const { f, opts } = setup(['hang', 200]);
    const p = fetchWithRetry(URL_, undefined, { ...opts, attemptTimeoutMs: 30 });
    await settles(p, 200, 'a first attempt that hangs (attemptTimeoutMs 30) then a 200', f.calls);
    const res = await p.catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome after a timed-out attempt then a 200').toBe(200);
    expect(f.calls.length, 'fetch calls').toBe(2);
  });

  test('R2 does not retry 400, 401, 403, 404, 409, 422, 500, 501 or 304', async () => {
    for (const status of [400, 401, 403, 404, 409, 422, 500, 501, 304]) {
      const { f, opts } = setup([status, 200]);
      const err = await rejection(fetchWithRetry(URL_, undefined, opts), RetryError, `after a ${status}`);
      expect(f.calls.length, `fetch calls after a ${status} (you retried a ${status})`).toBe(1);
      expect(err.reason, `reason after a ${status}`).toBe('not-retryable');
      expect(err.status, `RetryError.status after a ${status}`).toBe(status);
    }
  });

  test('R3 never retries other errors and keeps them as cause', async () => {
    for (const error of [new RangeError('bad range'), new SyntaxError('bad json'), new Error('a bug')]) {
      const { f, opts } = setup([error, 200]);
      const err = await rejection(fetchWithRetry(URL_, undefined, opts), RetryError, `after fetch rejected with ${error.name}`);
      expect(f.calls.length, `fetch calls after a ${error.name}`).toBe(1);
      expect(err.reason, `reason after a ${error.name}`).toBe('not-retryable');
      expect(err.cause, `RetryError.cause after a ${error.name}`).toBe(error);
    }
  });

  test('R4 does not repeat a POST without an idempotency key', async () => {
    const { f, opts } = setup([503, 200]);
    const err = await rejection(fetchWithRetry(URL_, { method: 'POST', body: 'x' }, opts), RetryError, 'POST then 503');
    expect(f.calls.length, 'fetch calls for a POST that got a 503').toBe(1);
    expect(err.reason, 'reason').toBe('not-idempotent');
  });

  test('R4 honours idempotent: false on a GET and the default for PATCH', async () => {
    {
      const { f, opts } = setup([new TypeError('fetch failed'), 200]);
      const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, idempotent: false }), RetryError, 'GET with idempotent: false');
      expect(f.calls.length, 'fetch calls for GET with idempotent: false').toBe(1);
      expect(err.reason, 'reason').toBe('not-idempotent');
    }
    {
      const { f, opts } = setup([502, 200]);
      const err = await rejection(fetchWithRetry(URL_, { method: 'PATCH', body: 'x' }, opts), RetryError, 'PATCH then 502');
      expect(f.calls.length, 'fetch calls for a PATCH').toBe(1);
      expect(err.reason, 'reason').toBe('not-idempotent');
    }
  });

  test('R4 retries PUT and DELETE by default and POST marked idempotent', async () => {
    for (const [method, extra] of [
      ['PUT', {}],
      ['DELETE', {}],
      ['POST', { idempotent: true }],
    ] as const) {
      const { f, opts } = setup([503, 200]);
      const res = await fetchWithRetry(URL_, { method, body: method === 'DELETE' ? undefined : 'x' }, { ...opts, ...extra }).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome of ${method} after a 503`).toBe(200);
      expect(f.calls.length, `fetch calls for ${method}`).toBe(2);
    }
  });

  // fetch sends 'put' and 'delete' as PUT and DELETE, so they are the same idempotent requests.
  test('R4 compares methods case-insensitively: put, delete and get are retried', async () => {
    for (const method of ['put', 'delete', 'get', 'Put']) {
      const { f, opts } = setup([503, 200]);
      const body = method.toLowerCase() === 'put' ? 'x' : undefined;
      const res = await fetchWithRetry(URL_, { method, body }, opts).catch((e: unknown) => e);
      expect(res instanceof Response ? res.status : String(res), `outcome of method '${method}' after a 503`).toBe(200);
      expect(f.calls.length, `fetch calls for method '${method}'`).toBe(2);
    }
    const { f, opts } = setup([503, 200]);
    const err = await rejection(fetchWithRetry(URL_, { method: 'post', body: 'x' }, opts), RetryError, "method 'post' then 503");
    expect(f.calls.length, "fetch calls for method 'post'").toBe(1);
    expect(err.reason, "reason for method 'post'").toBe('not-idempotent');
  });

  test('R5 sends the same Idempotency-Key and the caller request on every attempt', async () => {
    const { f, opts } = setup([503, new TypeError('fetch failed'), 200]);
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-trace-id': 'abc123' },
      body: '{"amount":42}',
    };
    const res = await fetchWithRetry(URL_, init, { ...opts, idempotencyKey: 'key-7f3a' }).catch((e: unknown) => e);
    expect(res instanceof Response ? res.status : String(res), 'outcome of a POST with a key after 503, TypeError, 200').toBe(200);
    expect(f.calls.length, 'fetch calls').toBe(3);
    for (const call of f.calls) {
      expect(call.headers.get('idempotency-key'), `Idempotency-Key on attempt ${call.n}`).toBe('key-7f3a');
      expect(call.method, `method on attempt ${call.n}`).toBe('POST');
      expect(call.headers.get('content-type'), `content-type on attempt ${call.n}`).toBe('application/json');
      expect(call.headers.get('x-trace-id'), `x-trace-id on attempt ${call.n}`).toBe('abc123');
      expect(await call.body, `body on attempt ${call.n}`).toBe('{"amount":42}');
      expect(call.url, `url on attempt ${call.n}`).toBe(URL_);
    }
  });

  test('R5 keeps caller headers given as a Headers object', async () => {
    const { f, opts } = setup([503, 200]);
    const headers = new Headers({ authorization: 'Bearer t0k', accept: 'application/json' });
    await fetchWithRetry(URL_, { method: 'PUT', headers, body: 'v' }, { ...opts, idempotencyKey: 'k-1' }).catch(() => {});
    expect(f.calls.length, 'fetch calls').toBe(2);
    for (const call of f.calls) {
      expect(call.headers.get('authorization'), `authorization on attempt ${call.n}`).toBe('Bearer t0k');
      expect(call.headers.get('accept'), `accept on attempt ${call.n}`).toBe('application/json');
      expect(call.headers.get('idempotency-key'), `Idempotency-Key on attempt ${call.n}`).toBe('k-1');
    }
  });

  test('R5 keeps caller headers given as an array of pairs or a plain object', async () => {
    const forms: Array<[string, Array<[string, string]> | Record<string, string>]> = [
      [
        'an array of pairs',
        [
          ['x-trace-id', 'abc123'],
          ['accept', 'application/json'],
        ],
      ],
      ['a plain object', { 'x-trace-id': 'abc123', accept: 'application/json' }],
    ];
    for (const [form, headers] of forms) {
      for (const idempotencyKey of ['k-2', undefined]) {
        const { f, opts } = setup([503, 200]);
        const label = `headers as ${form}, ${idempotencyKey === undefined ? 'no idempotencyKey' : `idempotencyKey ${idempotencyKey}`}`;
        const res = await fetchWithRetry(URL_, { method: 'PUT', headers, body: 'v' }, { ...opts, idempotencyKey }).catch((e: unknown) => e);
        expect(res instanceof Response ? res.status : String(res), `outcome (${label})`).toBe(200);
        expect(f.calls.length, `fetch calls (${label})`).toBe(2);
        for (const call of f.calls) {
          expect(call.headers.get('x-trace-id'), `x-trace-id on attempt ${call.n} (${label})`).toBe('abc123');
          expect(call.headers.get('accept'), `accept on attempt ${call.n} (${label})`).toBe('application/json');
          expect(call.headers.get('idempotency-key'), `Idempotency-Key on attempt ${call.n} (${label})`).toBe(idempotencyKey ?? null);
          expect(await call.body, `body on attempt ${call.n} (${label})`).toBe('v');
        }
      }
    }
  });

  test('R5 sends no Idempotency-Key when none is given', async () => {
    const { f, opts } = setup([503, 200]);
    await fetchWithRetry(URL_, { headers: { 'x-a': '1' } }, opts).catch(() => {});
    for (const call of f.calls) {
      expect(call.headers.get('idempotency-key'), `Idempotency-Key on attempt ${call.n}`).toBeNull();
      expect(call.headers.get('x-a'), `x-a on attempt ${call.n}`).toBe('1');
    }
  });

  test('R6 stops after maxAttempts attempts with gave-up', async () => {
    const { f, opts } = setup([503, 503, 503, 503, 503, 200]);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 4 }), RetryError, 'five 503s with maxAttempts 4');
    expect(f.calls.length, 'fetch calls with maxAttempts 4').toBe(4);
    expect(err.reason, 'reason').toBe('gave-up');
    expect(err.status, 'RetryError.status').toBe(503);
  });

  test('R6 defaults to 3 attempts, and maxAttempts 1 means no retry', async () => {
    {
      const { f, opts } = setup([502, 502, 502, 502]);
      const err = await rejection(fetchWithRetry(URL_, undefined, opts), RetryError, 'four 502s with the default maxAttempts');
      expect(f.calls.length, 'fetch calls with the default maxAttempts').toBe(3);
      expect(err.reason, 'reason').toBe('gave-up');
    }
    {
      const { f, opts } = setup([502, 200]);
      const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, maxAttempts: 1 }), RetryError, 'a 502 with maxAttempts 1');
      expect(f.calls.length, 'fetch calls with maxAttempts 1').toBe(1);
      expect(err.reason, 'reason').toBe('gave-up');
    }
  });

  test('R15 attempts counts the fetch calls for every reason', async () => {
    const cases: Array<[string, Step[], object, string, number]> = [
      ['503, 503, 404', [503, 503, 404], {}, 'not-retryable', 3],
      ['503 x3', [503, 503, 503], {}, 'gave-up', 3],
      ['TypeError, RangeError', [new TypeError('x'), new RangeError('y')], {}, 'not-retryable', 2],
      ['POST 429', [429], { method: 'POST' }, 'not-idempotent', 1],
    ];
    for (const [label, steps, init, reason, attempts] of cases) {
      const { f, opts } = setup(steps);
      const err = await rejection(fetchWithRetry(URL_, init, opts), RetryError, label);
      expect(err.reason, `reason after ${label}`).toBe(reason);
      expect(f.calls.length, `fetch calls after ${label}`).toBe(attempts);
      expect(err.attempts, `RetryError.attempts after ${label} (fetch was called ${f.calls.length} times)`).toBe(f.calls.length);
    }
  });

  test('R15 attempts counts an attempt that timed out or was aborted', async () => {
    {
      const { f, opts } = setup(['hang', 'hang']);
      const p = fetchWithRetry(URL_, undefined, { ...opts, attemptTimeoutMs: 20, maxAttempts: 2 });
      await settles(p, 200, 'two attempts that hang (attemptTimeoutMs 20, maxAttempts 2)', f.calls);
      const err = await rejection(p, RetryError, 'two timed-out attempts');
      expect(err.reason, 'reason after two timed-out attempts').toBe('gave-up');
      expect(err.attempts, `RetryError.attempts after two timed-out attempts (fetch was called ${f.calls.length} times)`).toBe(f.calls.length);
    }
    {
      const { f, opts } = setup([503, 'hang']);
      const ac = new AbortController();
      const p = fetchWithRetry(URL_, undefined, { ...opts, signal: ac.signal, attemptTimeoutMs: 5000 });
      p.catch(() => {});
      for (let i = 0; i < 50 && f.calls.length < 2; i++) await new Promise((r) => setTimeout(r, 5));
      ac.abort();
      await settles(p, 200, 'an abort during the second attempt', f.calls);
      const err = await rejection(p, RetryError, 'an abort during the second attempt');
      expect(err.reason, 'reason after an abort during the second attempt').toBe('aborted');
      expect(err.attempts, `RetryError.attempts after an abort during attempt 2 (fetch was called ${f.calls.length} times)`).toBe(f.calls.length);
    }
  });

  test('R15 attempts is 0 when no fetch was made', async () => {
    const { f, opts } = setup([200]);
    const err = await rejection(fetchWithRetry(URL_, undefined, { ...opts, deadlineAt: 0 }), RetryError, 'a deadline already reached');
    expect(f.calls.length, 'fetch calls').toBe(0);
    expect(err.attempts, 'RetryError.attempts when fetch was never called').toBe(0);
  });
});
