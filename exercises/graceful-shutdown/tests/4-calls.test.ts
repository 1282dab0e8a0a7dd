// G9-G10: shutdown() called again is safe, it never throws or rejects (a server that is not
// listening has nothing to drain), and serveGracefully refuses delays setTimeout would misread.
import { describe, expect } from 'vitest';
import http from 'node:http';
import { expectAccepted, expectRangeError } from '../test-support/expect.ts';
import { serveGracefully } from '../src/shutdown.ts';
import { showReply, showStop, since, test } from './harness.ts';

describe.concurrent('G9 shutdown() twice is safe', () => {
  test.concurrent('G9 a second call during the shutdown settles with the first', async ({ h }) => {
    const rig = await h.start({ preStopMs: 100, drainMs: 3000 });
    const slow = rig.fresh('/slow/600');
    await h.until(() => rig.handled.length === 1, 1000);
    const first = rig.shutdown();
    await h.at(first.t0, 200);
    const readyBefore = rig.graceful.ready();
    const second = rig.shutdown();
    expect(second.threw, `a second shutdown() call, 200 ms after the first: ${showStop(second)}`).toBeUndefined();
    const reply = await slow;
    await h.settled(first, 1000);
    await h.settled(second, first.settled ? 200 : 0);
    const story = `the request in flight ended ${since(first, reply.at)} (${showReply(reply)}); the first call: ${showStop(first)}; the second call, made 200 ms later: ${showStop(second, first)}`;
    if (second.settled) {
      expect(
        first.settled !== undefined && second.settled.at >= first.settled.at - 1,
        `${story}. The second call settled while the shutdown was still going on: it must settle with the first (return the same promise).`,
      ).toBe(true);
      expect(second.settled.ok || !first.settled?.ok, `${story}. The second call must not fail where the first succeeds.`).toBe(true);
    } else {
      // A first call that never settles is G7's business; the second must follow it, whichever way.
      expect(first.settled, `${story}. The second call must settle with the first.`).toBeUndefined();
    }
    // Not ready after the first call is G1's business; a second call must not make it ready again.
    expect(readyBefore === false && rig.graceful.ready(), 'ready() returned true again after the second shutdown() call').toBe(false);
  });

  test.concurrent('G9 a call after the shutdown has finished resolves', async ({ h }) => {
    const rig = await h.start({ preStopMs: 50, drainMs: 1000 });
    const first = rig.shutdown();
    await h.settled(first, 1500);
    // A first shutdown that does not resolve is the business of the other rules.
    if (first.settled?.ok !== true) return;
    const again = rig.shutdown();
    expect(again.threw, `shutdown() called again once the first had resolved: ${showStop(again)}`).toBeUndefined();
    await h.settled(again, 1000);
    expect(again.settled?.ok, `shutdown() called again once the first had resolved: ${showStop(again)}; it must resolve (nothing is left to do)`).toBe(true);
  });
});

describe.concurrent('G10 errors', () => {
  test.concurrent('G10 shutdown() of a server that never listened resolves', async ({ h }) => {
    const rig = await h.start({ preStopMs: 20, drainMs: 500, listen: false });
    const stop = rig.shutdown();
    await h.settled(stop, 1500);
    expect(
      stop.settled?.ok,
      `the server never listened, and ${showStop(stop)}: there is nothing to drain, so shutdown() resolves (server.close() calls back with ERR_SERVER_NOT_RUNNING then; that is not a failed shutdown)`,
    ).toBe(true);
  });

  test.concurrent('G10 shutdown() of a server closed already resolves', async ({ h }) => {
    const rig = await h.start({ preStopMs: 20, drainMs: 500 });
    await new Promise<void>((resolve) => rig.server.close(() => resolve()));
    const stop = rig.shutdown();
    await h.settled(stop, 1500);
    expect(stop.settled?.ok, `the server had been closed already, and ${showStop(stop)}: shutdown() resolves, there is nothing left to drain`).toBe(true);
  });

  test.concurrent('G10 refuses a drainMs or preStopMs that is not a finite number of ms, 0 or more', async () => {
    const server = http.createServer();
    const handler = () => {};
    const make = (opts: Record<string, unknown>) => () => serveGracefully(server, { handler, ...opts } as never);
    for (const [what, opts] of [
      ['drainMs -1', { drainMs: -1 }],
      ['drainMs NaN', { drainMs: Number.NaN }],
      ['drainMs Infinity', { drainMs: Number.POSITIVE_INFINITY }],
      ['drainMs "1000" (a string)', { drainMs: '1000' }],
      ['no drainMs', {}],
      ['preStopMs -5', { drainMs: 1000, preStopMs: -5 }],
      ['preStopMs NaN', { drainMs: 1000, preStopMs: Number.NaN }],
      ['preStopMs Infinity', { drainMs: 1000, preStopMs: Number.POSITIVE_INFINITY }],
    ] as const) {
      expectRangeError(make(opts), `serveGracefully with ${what} (setTimeout would run it after 1 ms)`);
    }
    for (const [what, opts] of [
      ['drainMs 0', { drainMs: 0 }],
      ['drainMs 1500.5', { drainMs: 1500.5 }],
      ['preStopMs 0', { drainMs: 1000, preStopMs: 0 }],
      ['no preStopMs', { drainMs: 1000 }],
    ] as const) {
      expectAccepted(make(opts), `serveGracefully with ${what}`);
    }
  });
});
