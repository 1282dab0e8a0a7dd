// A caller that goes away: C stops its work, and a user who leaves stops the whole chain.
// The hang-up comes once C is really working (not at a fixed time), so a slow machine cannot
// make the test pass or fail by itself. Every rule and every test runs concurrently (see
// service-chain.test.ts).
import { describe, expect } from 'vitest';
import { test } from './harness.ts';
import { startC, startChain } from './services.ts';

/** C's steps are counted this long after the hang-up: by then a C that stops has stopped. */
const SOON = 150;
/** ...and again this long after it: a C that goes on (10 ms a step) has started about 20 more steps. */
const LATER = 350;

describe.concurrent('S6 when a caller goes away the work below it stops', () => {
  test.concurrent('S6 C stops working when its caller disconnects', async ({ h }) => {
    const c = await startC(h, 3000, 5000);
    const call = h.send(c.url);
    const working = await h.until(() => c.work.done >= 3, 1500);
    expect(
      working,
      `C (a 3000 ms job) was called and, 1.5 s later, ${c.work.done} of its steps through step() had finished: it is not working at all (C does its job by awaiting opts.step()).`,
    ).toBe(true);
    call.hangUp();
    const hungUpAt = performance.now();
    const atHangUp = c.work.started;
    const meter = h.stallMeter();
    await h.sleepUntil(hungUpAt, SOON, meter);
    const soon = c.work.started;
    await h.sleepUntil(hungUpAt, LATER, meter);
    const later = c.work.started;
    const story = `C (a 3000 ms job with a 5000 ms budget) was working (${atHangUp} steps started) when its caller hung up; it had started ${soon} steps ${SOON} ms later and ${later} steps ${LATER} ms later`;
    expect(later, `${story}. C kept calling step() for a caller that was gone: once the response closes before it has finished, start no further step.`).toBe(
      soon,
    );
  });

  test.concurrent('S6 a user who hangs up stops the whole chain', async ({ h }) => {
    const { a, b, c } = await startChain(h, 3000, 5000); // deadlines far away: only the hang-up can stop C
    const call = h.send(a.url, { 'x-deadline-ms': '5000' });
    const working = await h.until(() => c.work.done >= 3, 1500);
    const reached = `B received ${b.seen.length} call(s), C ${c.seen.length}, and ${c.work.done} of C's steps had finished`;
    expect(working, `The user sent a request with 5000 ms to A; after 1500 ms ${reached}: C should have been working by then.`).toBe(true);
    call.hangUp();
    const hungUpAt = performance.now();
    const meter = h.stallMeter();
    await h.sleepUntil(hungUpAt, SOON, meter);
    const soon = c.work.started;
    await h.sleepUntil(hungUpAt, LATER, meter);
    const later = c.work.started;
    await h.sleep(0);
    const gone = (t: number | undefined) => (t === undefined ? `was still open ${LATER} ms later` : `closed ${Math.max(0, Math.round(t - hungUpAt))} ms later`);
    const story = `The user gave 5000 ms and hung up while C was working. A's call to B ${gone(b.seen[0]?.abandonedAt)}, B's call to C ${gone(c.seen[0]?.abandonedAt)}; C had started ${soon} steps of its job ${SOON} ms after the hang-up and ${later} steps ${LATER} ms after it`;
    expect(b.seen[0]!.abandonedAt, `${story}. A must abort its call to B when the user goes away.`).toBeDefined();
    expect(c.seen[0]!.abandonedAt, `${story}. B must abort its call to C when A goes away.`).toBeDefined();
    expect(later, `${story}. C kept calling step() after its caller left.`).toBe(soon);
  });
});
