import { describe, expect, test } from 'vitest';
import { callThrottled, ThrottledError } from '../src/throttle.ts';
import { describeError, settle, spyThrottle, started } from './helpers.ts';

describe('callThrottled', () => {
  test('A8 a refused request is never sent and fails with a ThrottledError', async () => {
    const throttle = spyThrottle(false);
    let sends = 0;
    const outcome = await settle(() => callThrottled(throttle, async () => void sends++));
    expect(sends, 'send() calls after admit() refused').toBe(0);
    if (outcome.ok) expect.fail('callThrottled resolved although admit() refused');
    const error = outcome.error;
    expect(error instanceof ThrottledError, `the error is a ThrottledError (got ${describeError(error)})`).toBe(true);
    expect(error instanceof Error, 'a ThrottledError is an Error').toBe(true);
    expect((error as Error).name, 'name of the ThrottledError').toBe('ThrottledError');
    expect(throttle.log, 'calls on the throttle').toEqual(['admit']);
  });

  // Decided before anything is sent, so a callThrottled that refuses outside its async code throws
  // out of the call itself; settle() and any await take that for a rejection.
  test('A8 a refusal is a rejected promise, never a synchronous throw', async () => {
    for (const opts of [undefined, { isOverload: () => true }]) {
      const throttle = spyThrottle(false);
      let sends = 0;
      const what = `admit() refused${opts ? ', with isOverload given' : ''}, calling callThrottled without awaiting it`;
      const call = started(() => callThrottled(throttle, async () => void sends++, opts), what);
      const outcome = await settle(() => call);
      if (outcome.ok) expect.fail(`${what}: callThrottled resolved although admit() refused`);
      expect(outcome.error instanceof ThrottledError, `${what}: the rejection is a ThrottledError (got ${describeError(outcome.error)})`).toBe(true);
      expect(sends, `${what}: send() calls`).toBe(0);
      expect(throttle.log, `${what}: calls on the throttle`).toEqual(['admit']);
    }
  });

  test('A8 an admitted request is sent once; a success resolves with its value and records an accept', async () => {
    const throttle = spyThrottle(true);
    let sends = 0;
    const outcome = await settle(() =>
      callThrottled(throttle, async () => {
        sends++;
        return 'stock: 12';
      }),
    );
    expect(outcome, 'the outcome of an admitted call whose send() resolves').toEqual({ ok: true, value: 'stock: 12' });
    expect(sends, 'send() calls').toBe(1);
    expect(throttle.log, 'calls on the throttle').toEqual(['admit', 'record(true)']);
  });

  test('A8 a failure is an overload by default: it is recorded as not accepted and rejects with the same error', async () => {
    const throttle = spyThrottle(true);
    const failure = new Error('503 Service Unavailable');
    let sends = 0;
    const outcome = await settle(() =>
      callThrottled(throttle, async () => {
        sends++;
        throw failure;
      }),
    );
    expect(outcome.ok, 'callThrottled rejects when send() rejects').toBe(false);
    if (!outcome.ok) expect(outcome.error, 'the rejection is send()’s own error').toBe(failure);
    expect(sends, 'send() calls (no retry)').toBe(1);
    expect(throttle.log, 'calls on the throttle').toEqual(['admit', 'record(false)']);
  });

  test('A8 isOverload decides: an error the backend answered (a 404) counts as accepted', async () => {
    const throttle = spyThrottle(true);
    const notFound = Object.assign(new Error('404 Not Found'), { status: 404 });
    const seen: unknown[] = [];
    const isOverload = (error: unknown) => {
      seen.push(error);
      return (error as { status?: number }).status === 503;
    };
    const outcome = await settle(() =>
      callThrottled(
        throttle,
        async () => {
          throw notFound;
        },
        { isOverload },
      ),
    );
    expect(outcome.ok, 'callThrottled rejects when send() rejects with a 404').toBe(false);
    if (!outcome.ok) expect(outcome.error, 'the rejection is send()’s own error').toBe(notFound);
    expect(seen, 'errors passed to isOverload').toEqual([notFound]);
    expect(throttle.log, 'calls on the throttle').toEqual(['admit', 'record(true)']);

    const second = spyThrottle(true);
    const overloaded = Object.assign(new Error('503'), { status: 503 });
    await settle(() =>
      callThrottled(
        second,
        async () => {
          throw overloaded;
        },
        { isOverload },
      ),
    );
    expect(second.log, 'calls on the throttle when isOverload says true').toEqual(['admit', 'record(false)']);
  });

  // A send() that throws before it returns a promise (a client that checks its arguments first) has
  // failed like one that rejects. A callThrottled that is not async and chains on send()'s promise
  // lets that throw out of the call, unrecorded; settle() and any await take it for a rejection.
  test('A8 a send() that throws synchronously is a failure: recorded, and a rejected promise with its error', async () => {
    for (const opts of [undefined, { isOverload: () => false }]) {
      const throttle = spyThrottle(true);
      const failure = new TypeError('invalid item id');
      const what = `send() threw synchronously${opts ? ', with isOverload saying false' : ''}, calling callThrottled without awaiting it`;
      const call = started(
        () =>
          callThrottled(
            throttle,
            () => {
              throw failure;
            },
            opts,
          ),
        what,
      );
      const outcome = await settle(() => call);
      if (outcome.ok) expect.fail(`${what}: callThrottled resolved`);
      expect(outcome.error, `${what}: the rejection is send()’s own error (got ${describeError(outcome.error)})`).toBe(failure);
      expect(throttle.log, `${what}: calls on the throttle`).toEqual(['admit', opts ? 'record(true)' : 'record(false)']);
    }
  });

  test('A8 record() is called only after send() settles', async () => {
    const throttle = spyThrottle(true);
    let finish: (v: string) => void = () => {};
    const pending = callThrottled(throttle, () => new Promise<string>((resolve) => (finish = resolve)));
    await Promise.resolve();
    await Promise.resolve();
    expect(throttle.log, 'calls on the throttle while send() is still pending').toEqual(['admit']);
    finish('done');
    expect(await pending, 'value once send() resolves').toBe('done');
    expect(throttle.log, 'calls on the throttle after send() resolved').toEqual(['admit', 'record(true)']);
  });
});
