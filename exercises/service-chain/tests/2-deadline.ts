// A deadline that passes: a slow C under a 300 ms budget (one call to C, no work after the
// deadline), a B and a C that never answer (each hop answers 504 on time and aborts its call), and
// C stopping at its own deadline. The three situations run once each, side by side, in the scope of
// whichever test asks first; S7, S2 and S5 read what they saw. Every rule and every test runs
// concurrently (see service-chain.test.ts).
import { describe, expect } from 'vitest';
import { callsTo, hang, MAX_STALL_ALLOWANCE, showReply, test, type Reply } from './harness.ts';
import { once, startA, startB, startC, startChain } from './services.ts';

const DEADLINE = 300;
const LATE = 250; // margin for a busy machine

/** C's steps are counted this long after the deadline: by then a C that stops at its deadline has stopped. */
const SOON = 150;
/** ...and again this long after it: a C that goes on (10 ms a step) has started about 20 more steps. */
const LATER = 350;

/** C's job takes 2000 ms; the user gives 300 ms. C's steps are counted SOON and LATER ms after the deadline. */
const slow = once(async (h) => {
  const chain = await startChain(h, 2000);
  const meter = h.stallMeter();
  const { reply, started } = h.send(chain.a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  let r: Reply | undefined;
  void reply.then((x) => (r = x));
  await h.sleepUntil(started, DEADLINE + SOON, meter);
  const stepsSoonAfter = chain.c.work.started;
  await h.sleepUntil(started, DEADLINE + LATER, meter);
  return { ...chain, reply: r, stepsSoonAfter, stepsLater: chain.c.work.started, callsB: callsTo(chain.b), callsC: callsTo(chain.c) };
});

/** A in front of a B that never answers, and B in front of a C that never answers, both under 300 ms. */
const hanging = once(async (h) => {
  const stubB = await h.stub(hang);
  const a = await startA(h, stubB.url);
  const stubC = await h.stub(hang);
  const b = await startB(h, stubC.url);
  const meter = h.stallMeter();
  const toA = h.send(a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  const toB = h.send(b.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  const [fromA, fromB] = await Promise.all([toA.reply, toB.reply]);
  await h.sleepUntil(Math.max(toA.started, toB.started), DEADLINE + LATE, meter);
  const limit = DEADLINE + LATE + Math.min(meter.stop(), MAX_STALL_ALLOWANCE);
  const abandoned = (s: typeof stubB, started: number) => (s.seen[0]?.abandonedAt === undefined ? undefined : s.seen[0].abandonedAt - started);
  return {
    limit,
    fromA,
    fromB,
    callsB: stubB.seen.length,
    callsC: stubC.seen.length,
    bAbandonedAfter: abandoned(stubB, toA.started),
    cAbandonedAfter: abandoned(stubC, toB.started),
  };
});

describe.concurrent('S7 no work after the deadline, anywhere', () => {
  test.concurrent('S7 no work at C after the deadline', async ({ h }) => {
    const { stepsSoonAfter, stepsLater, reply } = await slow(h);
    expect(
      stepsLater,
      `C's job takes 2000 ms and the user gave A 300 ms (user got ${showReply(reply)}). C had started ${stepsSoonAfter} steps of its job ${SOON} ms after the deadline and ${stepsLater} steps ${LATER} ms after it: it was still working for a request nobody was waiting for.`,
    ).toBe(stepsSoonAfter);
  });

  test.concurrent('S7 C stops at its own deadline even while its caller waits', async ({ h }) => {
    const c = await startC(h, 2000);
    // A reply later than the largest limit below fails the test whenever it comes: stop waiting then.
    const { reply, started } = h.send(c.url, { 'x-deadline-ms': '200' }, { waitMs: 200 + 250 + MAX_STALL_ALLOWANCE });
    const meter = h.stallMeter();
    await h.sleepUntil(started, 200 + SOON, meter);
    const soon = c.work.started;
    await h.sleepUntil(started, 200 + LATER, meter);
    const later = c.work.started;
    const r = await reply;
    const limit = 200 + 250 + Math.min(meter.stop(), MAX_STALL_ALLOWANCE);
    const story = `C (a 2000 ms job) was called directly with x-deadline-ms: 200 and the caller kept waiting; C had started ${soon} steps of its job at ${200 + SOON} ms and ${later} at ${200 + LATER} ms, and answered ${showReply(r)}`;
    expect(later, `${story}. C must start no step once its own deadline has passed.`).toBe(soon);
    expect(r?.status, `${story}. Expected C to answer 504 once its deadline passed.`).toBe(504);
    expect(r!.ms, `${story}. Expected the 504 within about 200 ms (limit allowed on this machine: ${Math.round(limit)} ms).`).toBeLessThan(limit);
  });

  test.concurrent('S7 A and B abort their call downstream when their deadline passes', async ({ h }) => {
    const { callsB, callsC, bAbandonedAfter, cAbandonedAfter, limit } = await hanging(h);
    const when = (t: number | undefined) => (t === undefined ? `was still open ${Math.round(limit)} ms after the request` : `closed after ${Math.round(t)} ms`);
    // A call that never got through (a very busy machine) leaves nothing running: nothing to check.
    if (callsB > 0)
      expect(
        bAbandonedAfter,
        `A's call to a B that never answers ${when(bAbandonedAfter)}; with x-deadline-ms: ${DEADLINE} it must be aborted at A's deadline.`,
      ).toBeDefined();
    if (callsB > 0) expect(bAbandonedAfter!, `A's call to B ${when(bAbandonedAfter)}: later than the deadline allows.`).toBeLessThan(limit);
    if (callsC > 0)
      expect(
        cAbandonedAfter,
        `B's call to a C that never answers ${when(cAbandonedAfter)}; with x-deadline-ms: ${DEADLINE} it must be aborted at B's deadline.`,
      ).toBeDefined();
    if (callsC > 0) expect(cAbandonedAfter!, `B's call to C ${when(cAbandonedAfter)}: later than the deadline allows.`).toBeLessThan(limit);
  });
});

function expectTimely504(r: Reply | undefined, who: string, limit: number) {
  const story = `${who}, called with x-deadline-ms: ${DEADLINE}, waited for a service that never answers and answered ${showReply(r)}`;
  expect(r, `${story}. Expected a 504 by the deadline.`).toBeDefined();
  expect(
    r!.ms,
    `${story}. Its call must end with the budget it was given, not after a fixed timeout of its own (limit allowed on this machine: ${Math.round(limit)} ms).`,
  ).toBeLessThan(limit);
  expect(r!.ms, `${story}. That is well before the deadline: keep only RESERVE_MS (20 ms) back.`).toBeGreaterThan(DEADLINE - 80);
  expect(r!.status, `${story}. Expected status 504.`).toBe(504);
}

describe.concurrent('S2 no fixed timeout outlives the budget', () => {
  test.concurrent('S2 A answers 504 by the deadline when B never answers', async ({ h }) => {
    const { fromA, limit } = await hanging(h);
    expectTimely504(fromA, 'A', limit);
  });

  test.concurrent('S2 B answers 504 by the deadline when C never answers', async ({ h }) => {
    const { fromB, limit } = await hanging(h);
    expectTimely504(fromB, 'B', limit);
  });
});

describe.concurrent('S5 one call to a slow C', () => {
  test.concurrent('S5 a slow C under a 300 ms budget gets exactly one call', async ({ h }) => {
    const { callsB, callsC, reply } = await slow(h);
    const story = `C's job takes 2000 ms and the user gave A 300 ms; by ${DEADLINE + LATER} ms B had received ${callsB} call(s) and C ${callsC} (user got ${showReply(reply)})`;
    expect(callsC, `${story}. Expected exactly one call to C: the first attempt uses the whole budget, so nobody may try again.`).toBe(1);
    expect(callsB, `${story}. Expected exactly one call to B.`).toBe(1);
  });
});
