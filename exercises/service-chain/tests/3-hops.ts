// One hop at a time, with a stand-in for the service below it: failing fast, and which layer
// retries. Each describe is one rule; every rule and every test runs concurrently (see
// service-chain.test.ts).
import { describe, expect } from 'vitest';
import { answer, callsTo, hangUp, MAX_STALL_ALLOWANCE, showReply, test, type Reply } from './harness.ts';
import { startA, startB, startC } from './services.ts';

const DEADLINE = 300;
/** Where a test counts calls, not time: a budget no busy machine can exhaust. */
const ROOMY = 3000;
const roomy = { 'x-deadline-ms': String(ROOMY) };

describe.concurrent('S3 fail fast when the budget is spent', () => {
  test.concurrent('S3 with too little budget left, each hop answers 504 at once and calls nobody', async ({ h }) => {
    const stubB = await h.stub(answer(200, { work: 'done', steps: 0 }));
    const a = await startA(h, stubB.url);
    const stubC = await h.stub(answer(200, { work: 'done', steps: 0 }));
    const b = await startB(h, stubC.url);
    const c = await startC(h, 2000);
    const meter = h.stallMeter();
    // A reply later than the largest limit below fails the test whenever it comes: stop waiting then.
    const waitMs = 1000 + MAX_STALL_ALLOWANCE;
    const [fromA, fromB, fromC] = await Promise.all([
      h.send(a.url, { 'x-deadline-ms': '60' }, { waitMs }).reply,
      h.send(b.url, { 'x-deadline-ms': '60' }, { waitMs }).reply,
      h.send(c.url, { 'x-deadline-ms': '0' }, { waitMs }).reply,
    ]);
    await h.sleep(60);
    const limit = 1000 + Math.min(meter.stop(), MAX_STALL_ALLOWANCE); // "at once": nowhere near a timeout
    const check = (who: string, sent: string, r: Reply | undefined, calls: number, below: string) => {
      const story = `${who} received x-deadline-ms: ${sent}, answered ${showReply(r)} and ${below} ${calls} time(s)`;
      expect(calls, `${story}. With less than MIN_ATTEMPT_MS (50) left after the reserve, nothing must be started.`).toBe(0);
      expect(r?.status, `${story}. Expected an immediate 504.`).toBe(504);
      expect(r!.ms, `${story}. Expected the 504 at once.`).toBeLessThan(limit);
    };
    check('A', '60', fromA, callsTo(stubB), 'called B');
    check('B', '60', fromB, callsTo(stubC), 'called C');
    check('C', '0', fromC, c.work.started, 'started a step of its job');
  });
});

describe.concurrent('S4 only one layer retries', () => {
  test.concurrent('S4 a transient failure below B is retried once, by A only', async ({ h }) => {
    // C fails once with 503, then succeeds.
    const flakyC = await h.stub((res, n) => answer(n === 0 ? 503 : 200, n === 0 ? { error: 'overloaded' } : { work: 'done', steps: 1 })(res));
    const b1 = await startB(h, flakyC.url, ROOMY);
    const a1 = await startA(h, b1.url, ROOMY);
    // C always fails with 503.
    const downC = await h.stub(answer(503, { error: 'overloaded' }));
    const b2 = await startB(h, downC.url, ROOMY);
    const a2 = await startA(h, b2.url, ROOMY);
    const [r1, r2] = await Promise.all([h.send(a1.url, roomy).reply, h.send(a2.url, roomy).reply]);
    await h.sleep(100);
    const story1 = `C answered 503 once, then 200. B received ${callsTo(b1)} call(s), C ${callsTo(flakyC)}; the user got ${showReply(r1)}`;
    expect([callsTo(b1), callsTo(flakyC)], `${story1}. Expected 2 calls at B and 2 at C: A retries once, B never retries.`).toEqual([2, 2]);
    expect(r1?.status, `${story1}. Expected the retry to succeed with 200.`).toBe(200);
    const story2 = `C always answered 503. B received ${callsTo(b2)} call(s), C ${callsTo(downC)}; the user got ${showReply(r2)}`;
    expect([callsTo(b2), callsTo(downC)], `${story2}. Expected 2 calls at B and 2 at C: one retry in the whole chain.`).toEqual([2, 2]);
    expect(r2?.status, `${story2}. Expected C's 503 passed up to the user.`).toBe(503);
  });

  test.concurrent('S4 B never retries: one call to C, whatever C answers', async ({ h }) => {
    const downC = await h.stub(answer(503, { error: 'overloaded' }));
    const b1 = await startB(h, downC.url, ROOMY);
    const droppingC = await h.stub(hangUp);
    const b2 = await startB(h, droppingC.url, ROOMY);
    const [r1, r2] = await Promise.all([h.send(b1.url, roomy).reply, h.send(b2.url, roomy).reply]);
    await h.sleep(100);
    expect(callsTo(downC), `B was called once and C answered 503; C received ${callsTo(downC)} calls (B answered ${showReply(r1)}). B must not retry.`).toBe(1);
    expect(r1?.status, `C answered 503 and B answered ${showReply(r1)}. Expected B to pass C's status up.`).toBe(503);
    expect(
      callsTo(droppingC),
      `B was called once and C dropped the connection; C received ${callsTo(droppingC)} calls (B answered ${showReply(r2)}). B must not retry.`,
    ).toBe(1);
    expect(r2?.status, `C dropped the connection and B answered ${showReply(r2)}. Expected 502.`).toBe(502);
  });

  test.concurrent('S4 A retries a dropped connection to B once', async ({ h }) => {
    const droppingB = await h.stub(hangUp);
    const a = await startA(h, droppingB.url, ROOMY);
    const r = await h.send(a.url, roomy).reply;
    await h.sleep(100);
    expect(
      callsTo(droppingB),
      `B dropped every connection; B received ${callsTo(droppingB)} call(s) from A (user got ${showReply(r)}). Expected 2: the first attempt and one retry.`,
    ).toBe(2);
    expect(r?.status, `B dropped every connection and the user got ${showReply(r)}. Expected 502.`).toBe(502);
  });

  test.concurrent('S4 A does not retry a 500 or a 504 from B', async ({ h }) => {
    const failingB = await h.stub(answer(500, { error: 'internal' }));
    const a1 = await startA(h, failingB.url, ROOMY);
    const timedOutB = await h.stub(answer(504, { error: 'deadline_exceeded' }));
    const a2 = await startA(h, timedOutB.url, ROOMY);
    const [r1, r2] = await Promise.all([h.send(a1.url, roomy).reply, h.send(a2.url, roomy).reply]);
    await h.sleep(100);
    for (const [status, stub, r] of [
      [500, failingB, r1],
      [504, timedOutB, r2],
    ] as const) {
      const story = `B answered ${status} at once; B received ${callsTo(stub)} call(s) from A (user got ${showReply(r)})`;
      expect(callsTo(stub), `${story}. Expected 1: A tries again only on a 502, a 503 or a failed connection.`).toBe(1);
      expect(r?.status, `${story}. Expected B's ${status} passed up unchanged.`).toBe(status);
    }
  });

  test.concurrent('S4 A does not retry when a whole attempt no longer fits in the budget', async ({ h }) => {
    const slowB = await h.stub((res) => {
      const timer = setTimeout(() => answer(503, { error: 'overloaded' })(res), 240);
      res.once('close', () => clearTimeout(timer));
    });
    const a = await startA(h, slowB.url);
    const meter = h.stallMeter();
    const { reply, started } = h.send(a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
    const r = await reply;
    await h.sleepUntil(started, DEADLINE + 200, meter);
    expect(
      callsTo(slowB),
      `B answered 503 after 240 ms of a 300 ms budget; B received ${callsTo(slowB)} call(s) (user got ${showReply(r)}). What is left after the reserve is below MIN_ATTEMPT_MS, so A must not retry.`,
    ).toBe(1);
  });
});
