// G8 is about the process: once shutdown() has resolved, no timer of it may keep the process alive
// (the pod would wait out its grace period). Four shutdowns with a 60 s drain deadline run here, all
// drained early, and no timer made while they ran may still hold the process. A cleared timer and an
// unref()'d one both pass; a 60 s deadline timer left running fails. ../test-support/timers.ts says
// how timers are followed (node:timers and timers/promises ones too, where the runtime has async_hooks).
import { expect } from 'vitest';
import { watchTimers } from '../test-support/timers.ts';
import { test, type Stop } from './harness.ts';

// A macrotask turn (setImmediate is Node's; a zero timer is the same everywhere else).
const turn = () => new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

test('G8 no timer of the shutdown keeps the process alive once shutdown() has resolved', async ({ h }) => {
  const timers = watchTimers();
  try {
    const stops: Array<[string, Stop]> = [];
    // Nothing to drain.
    const idle = await h.start({ preStopMs: 20, drainMs: 60_000 });
    stops.push(['an idle server', idle.shutdown()]);
    // One request in flight, done 100 ms later.
    const busy = await h.start({ preStopMs: 20, drainMs: 60_000 });
    const slow = busy.fresh('/slow/100');
    await h.until(() => busy.handled.length === 1, 1000);
    stops.push(['a server with a request in flight', busy.shutdown()]);
    // An idle kept-alive connection and an answer streaming for 100 ms more.
    const kept = await h.start({ preStopMs: 20, drainMs: 60_000 });
    const idleClient = kept.client();
    await idleClient.get('/orders');
    const stream = kept.client().get('/stream/100');
    await h.until(() => kept.handled.length === 2, 1000);
    stops.push(['a server with kept-alive connections', kept.shutdown()]);
    // shutdown() called twice.
    const twice = await h.start({ preStopMs: 20, drainMs: 60_000 });
    stops.push(['a server shut down twice', twice.shutdown()]);
    stops.push(['a server shut down twice (second call)', twice.shutdown()]);
    await Promise.all([slow, stream]);
    await Promise.all(stops.map(([, stop]) => h.settled(stop, 1500)));
    // A shutdown that threw, rejected or did not resolve within 1.5 s with nothing left to drain is
    // the business of G5, G7, G9 and G10: G8 is about the timers left once it has resolved.
    if (stops.some(([, s]) => s.settled?.ok !== true)) return;
    await turn();
    await turn();
    let left = timers.live();
    if (left.length > 0) {
      // The test runner may have a short timer of its own pending; a leaked 60 s timer stays.
      await h.sleep(250);
      left = timers.live();
    }
    expect(
      left.length < 2,
      `four shutdowns with drainMs 60000 (an idle server, a request in flight, kept-alive connections, shutdown() called twice) had all resolved, but ${left.length} timers set meanwhile (${left.map((ms) => `${ms} ms`).join(', ')}) were still pending and keeping the process alive: a timer of the shutdown (the drain deadline, an interval) outlives it. Clear it once the server has closed, or unref() it.`,
    ).toBe(true);
  } finally {
    timers.stop();
  }
});
