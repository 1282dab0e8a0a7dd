import { describe, expect, test } from 'vitest';
import { installRequestBody, installStreamIteration, installV8Stacks, isV8Stack, toV8Stack } from './engine.ts';

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

describe('ReadableStream async iteration where the engine has none (WebKit)', () => {
  /** A ReadableStream as WebKit has it: no values() and no Symbol.asyncIterator (Node's are hidden here). */
  class WebKitStream<T> extends ReadableStream<T> {}
  for (const key of ['values', Symbol.asyncIterator]) Object.defineProperty(WebKitStream.prototype, key, { value: undefined, configurable: true });
  installStreamIteration({ ReadableStream: WebKitStream });
  const counting = (cancelled: unknown[]) => {
    let n = 0;
    return new WebKitStream<number>({ pull: (c) => c.enqueue(++n), cancel: (reason) => void cancelled.push(reason) }, { highWaterMark: 0 });
  };

  test('for await reads every chunk to the end and releases the stream; an error is thrown there', async () => {
    const stream = new WebKitStream<string>({ start: (c) => (c.enqueue('a'), c.enqueue('b'), c.close()) });
    const chunks: string[] = [];
    for await (const chunk of stream as unknown as AsyncIterable<string>) chunks.push(chunk);
    expect(chunks).toEqual(['a', 'b']);
    expect(stream.locked).toBe(false);
    const failing = new WebKitStream({ start: (c) => c.error(new Error('broken')) });
    await expect(
      (async () => {
        for await (const _ of failing as unknown as AsyncIterable<unknown>) void _;
      })(),
    ).rejects.toThrow('broken');
    expect(failing.locked).toBe(false);
  });

  test('a break cancels the stream; values({ preventCancel: true }) leaves it readable', async () => {
    const cancelled: unknown[] = [];
    const stream = counting(cancelled);
    for await (const n of stream as unknown as AsyncIterable<number>) if (n === 2) break;
    expect(cancelled).toEqual([undefined]);
    expect(stream.locked).toBe(false);
    const kept = counting(cancelled);
    const it = (kept as unknown as { values(o: { preventCancel: boolean }): AsyncIterableIterator<number> }).values({ preventCancel: true });
    for await (const n of it) if (n === 1) break;
    expect(cancelled).toEqual([undefined]);
    expect(await kept.getReader().read()).toEqual({ value: 2, done: false });
  });

  test('next() calls run one after another; the iterator is an async iterator; a locked stream refuses', async () => {
    const stream = counting([]);
    const it = (stream as unknown as AsyncIterable<number>)[Symbol.asyncIterator]() as AsyncIterableIterator<number>;
    expect(await Promise.all([it.next(), it.next()])).toEqual([
      { value: 1, done: false },
      { value: 2, done: false },
    ]);
    expect(it[Symbol.asyncIterator]()).toBe(it);
    expect(await it.return?.('bye')).toEqual({ value: 'bye', done: true });
    expect(await it.next()).toEqual({ value: undefined, done: true });
    const locked = counting([]);
    locked.getReader();
    expect(() => (locked as unknown as AsyncIterable<number>)[Symbol.asyncIterator]()).toThrow(TypeError);
    expect(WebKitStream.prototype[Symbol.asyncIterator as never]).toBe((WebKitStream.prototype as unknown as { values: unknown }).values);
  });

  test('an engine that has it is left alone', () => {
    const native = ReadableStream.prototype[Symbol.asyncIterator as never];
    installStreamIteration({ ReadableStream });
    expect(ReadableStream.prototype[Symbol.asyncIterator as never]).toBe(native);
  });
});
