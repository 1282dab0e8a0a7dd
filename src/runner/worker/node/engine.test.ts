import { describe, expect, test } from 'vitest';
import { installRequestBody, installV8Stacks, isV8Stack, toV8Stack } from './engine.ts';

describe('stacks in V8’s shape', () => {
  test('a SpiderMonkey or JavaScriptCore stack gets a first line and one "at" line per frame, the caller third', () => {
    const firefox =
      'wrapper@http://x/exercise-suites/retry-helper.js:10:5\nfetchWithRetry@blob:http://x/5f1c:12:9\nasync*@http://x/s.js:3:1\nouter/inner<@http://x/s.js:4:2\n@http://x/s.js:5:3';
    const v8 = toV8Stack({ name: 'Error', message: 'boom' }, firefox, (u) => (u.startsWith('blob:') ? 'file:///exercise/src/retry.ts' : u));
    expect(v8.split('\n')).toEqual([
      'Error: boom',
      '    at wrapper (http://x/exercise-suites/retry-helper.js:10:5)',
      '    at fetchWithRetry (file:///exercise/src/retry.ts:12:9)',
      '    at async http://x/s.js:3:1',
      '    at inner (http://x/s.js:4:2)',
      '    at http://x/s.js:5:3',
    ]);
    expect(isV8Stack(v8)).toBe(true);
    expect(toV8Stack({ name: 'TypeError', message: '' }, 'Promise@[native code]\nf@http://x/a.js:1:1').split('\n')).toEqual([
      'TypeError',
      '    at Promise (<anonymous>)',
      '    at f (http://x/a.js:1:1)',
    ]);
  });

  test('a V8 stack is left as it is, and V8 itself gets no wrapper (Node runs this test)', () => {
    const stack = new Error('x').stack!;
    expect(toV8Stack(new Error('x'), stack)).toBe(stack);
    const scope: Record<string, unknown> = { Error };
    installV8Stacks(scope, (u) => u);
    expect(scope.Error).toBe(Error);
  });
});

describe('Request.body where the engine has none', () => {
  /** A Request as Firefox has it: no body stream (Node's own one is hidden here). */
  class FirefoxRequest extends Request {}
  Object.defineProperty(FirefoxRequest.prototype, 'body', { get: () => undefined, configurable: true });

  test('a body given to a Request reads as a stream, only when read; one without a body is null', async () => {
    const scope: Record<string, unknown> = { Request: FirefoxRequest };
    installRequestBody(scope, false);
    const Req = scope.Request as typeof Request;
    const withBody = new Req('http://x/', { method: 'POST', body: '{"amount":42}' });
    expect(withBody.body).toBeInstanceOf(ReadableStream);
    expect(await new Response(withBody.body).text()).toBe('{"amount":42}');
    expect(new Req('http://x/').body).toBeNull();
    const copy = new Req('http://x/', { method: 'PUT', body: 'v' });
    void copy.body;
    expect(await copy.text(), 'reading the body property first does not use the body up').toBe('v');
    expect(new Req(new Req('http://x/', { method: 'POST', body: 'y' })).body, 'a Request made from one with a body').not.toBeNull();
    expect(new Req('http://x/', { method: 'POST', body: 'z' }).clone().body).not.toBeNull();
    expect(new Req('http://x/') instanceof Req).toBe(true);
  });

  test('an engine that has Request.body is left alone', () => {
    const scope: Record<string, unknown> = { Request };
    installRequestBody(scope);
    expect(scope.Request).toBe(Request);
  });
});
