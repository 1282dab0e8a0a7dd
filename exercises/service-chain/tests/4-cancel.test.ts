// A caller that goes away: C stops its work, and a user who leaves stops the whole chain.
// The hang-up comes once C is really working (not at a fixed time), so a slow machine cannot
// make the test pass or fail by itself. The two tests run concurrently (one rule).
import { describe, expect } from 'vitest';
import { test } from './harness.ts';
import { startC, startChain } from './services.ts';

describe('S6 when a caller goes away the work below it stops', () => {
  test.concurrent('S6 C stops working when its caller disconnects', async ({ h }) => {
    const c = await startC(h, 3000, 5000);
    const call = h.send(c.url);
    const working = await h.until(() => c.ticks.n >= 3, 1500);
    expect(working, `C (a 3000 ms job) was called and had done ${c.ticks.n} ticks after 1.5 s: it is not working at all.`).toBe(true);
    call.hangUp();
    const hungUpAt = performance.now();
    const atHangUp = c.ticks.n;
    const meter = h.stallMeter();
    await h.sleepUntil(hungUpAt, 150, meter);
    const soon = c.ticks.n;
    await h.sleepUntil(hungUpAt, 450, meter);
    const later = c.ticks.n;
    const story = `C (a 3000 ms job with a 5000 ms budget) was working (${atHangUp} ticks) when its caller hung up; it had done ${soon} ticks 150 ms later and ${later} ticks 450 ms later`;
    expect(later, `${story}. C kept working for a caller that was gone: abort the work when the response closes before it has finished.`).toBe(soon);
  });

  test.concurrent('S6 a user who hangs up stops the whole chain', async ({ h }) => {
    const { a, b, c } = await startChain(h, 3000, 5000); // deadlines far away: only the hang-up can stop C
    const call = h.send(a.url, { 'x-deadline-ms': '5000' });
    const working = await h.until(() => c.ticks.n >= 3, 800);
    const reached = `B received ${b.seen.length} call(s), C ${c.seen.length}, and C did ${c.ticks.n} ticks`;
    expect(working, `The user sent a request with 5000 ms to A; after 800 ms ${reached}: C should have been working by then.`).toBe(true);
    call.hangUp();
    const hungUpAt = performance.now();
    const meter = h.stallMeter();
    await h.sleepUntil(hungUpAt, 150, meter);
    const soon = c.ticks.n;
    await h.sleepUntil(hungUpAt, 450, meter);
    const later = c.ticks.n;
    await h.sleep(0);
    const gone = (t: number | undefined) => (t === undefined ? 'was still open 450 ms later' : `closed ${Math.max(0, Math.round(t - hungUpAt))} ms later`);
    const story = `The user gave 5000 ms and hung up while C was working. A's call to B ${gone(b.seen[0]?.abandonedAt)}, B's call to C ${gone(c.seen[0]?.abandonedAt)}; C had done ${soon} ticks 150 ms after the hang-up and ${later} ticks 450 ms after it`;
    expect(b.seen[0]!.abandonedAt, `${story}. A must abort its call to B when the user goes away.`).toBeDefined();
    expect(c.seen[0]!.abandonedAt, `${story}. B must abort its call to C when A goes away.`).toBeDefined();
    expect(later, `${story}. C kept working after its caller left.`).toBe(soon);
  });
});
