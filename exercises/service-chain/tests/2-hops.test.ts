// One hop at a time, with a stand-in for the service below it: timeouts that follow the budget,
// failing fast, and which layer retries.
import { afterEach, expect, test } from 'vitest';
import { cleanup, answer, callsTo, hang, hangUp, MAX_STALL_ALLOWANCE, send, showReply, sleep, sleepUntil, stallMeter, stub, type Reply } from './harness.ts';
import { once, startA, startB, startC } from './services.ts';

afterEach(cleanup);

const DEADLINE = 300;
const LATE = 250; // margin for a busy machine
/** Where a test counts calls, not time: a budget no busy machine can exhaust. */
const ROOMY = 3000;
const roomy = { 'x-deadline-ms': String(ROOMY) };

/** A in front of a B that never answers, and B in front of a C that never answers, both under 300 ms. */
const hanging = once(async () => {
  const stubB = await stub(hang);
  const a = await startA(stubB.url);
  const stubC = await stub(hang);
  const b = await startB(stubC.url);
  const meter = stallMeter();
  const toA = send(a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  const toB = send(b.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  const [fromA, fromB] = await Promise.all([toA.reply, toB.reply]);
  await sleepUntil(Math.max(toA.started, toB.started), DEADLINE + LATE, meter);
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

function expectTimely504(r: Reply | undefined, who: string, limit: number) {
  const story = `${who}, called with x-deadline-ms: ${DEADLINE}, waited for a service that never answers and answered ${showReply(r)}`;
  expect(r, `${story}. Expected a 504 by the deadline.`).toBeDefined();
  expect(r!.ms, `${story}. Its call must end with the budget it was given, not after a fixed timeout of its own (limit allowed on this machine: ${Math.round(limit)} ms).`).toBeLessThan(limit);
  expect(r!.ms, `${story}. That is well before the deadline: keep only RESERVE_MS (20 ms) back.`).toBeGreaterThan(DEADLINE - 80);
  expect(r!.status, `${story}. Expected status 504.`).toBe(504);
}

test('S2 A answers 504 by the deadline when B never answers', async () => {
  const { fromA, limit } = await hanging();
  expectTimely504(fromA, 'A', limit);
});

test('S2 B answers 504 by the deadline when C never answers', async () => {
  const { fromB, limit } = await hanging();
  expectTimely504(fromB, 'B', limit);
});

test('S7 A and B abort their call downstream when their deadline passes', async () => {
  const { callsB, callsC, bAbandonedAfter, cAbandonedAfter, limit } = await hanging();
  const when = (t: number | undefined) => (t === undefined ? `was still open ${Math.round(limit)} ms after the request` : `closed after ${Math.round(t)} ms`);
  // A call that never got through (a very busy machine) leaves nothing running: nothing to check.
  if (callsB > 0) expect(bAbandonedAfter, `A's call to a B that never answers ${when(bAbandonedAfter)}; with x-deadline-ms: ${DEADLINE} it must be aborted at A's deadline.`).toBeDefined();
  if (callsB > 0) expect(bAbandonedAfter!, `A's call to B ${when(bAbandonedAfter)}: later than the deadline allows.`).toBeLessThan(limit);
  if (callsC > 0) expect(cAbandonedAfter, `B's call to a C that never answers ${when(cAbandonedAfter)}; with x-deadline-ms: ${DEADLINE} it must be aborted at B's deadline.`).toBeDefined();
  if (callsC > 0) expect(cAbandonedAfter!, `B's call to C ${when(cAbandonedAfter)}: later than the deadline allows.`).toBeLessThan(limit);
});

test('S3 with too little budget left, each hop answers 504 at once and calls nobody', async () => {
  const stubB = await stub(answer(200, { work: 'done', ticks: 0 }));
  const a = await startA(stubB.url);
  const stubC = await stub(answer(200, { work: 'done', ticks: 0 }));
  const b = await startB(stubC.url);
  const c = await startC(2000);
  const meter = stallMeter();
  const [fromA, fromB, fromC] = await Promise.all([
    send(a.url, { 'x-deadline-ms': '60' }).reply,
    send(b.url, { 'x-deadline-ms': '60' }).reply,
    send(c.url, { 'x-deadline-ms': '0' }).reply,
  ]);
  await sleep(60);
  const limit = 1000 + Math.min(meter.stop(), MAX_STALL_ALLOWANCE); // "at once": nowhere near a timeout
  const check = (who: string, sent: string, r: Reply | undefined, calls: number, below: string) => {
    const story = `${who} received x-deadline-ms: ${sent}, answered ${showReply(r)} and ${below} ${calls} time(s)`;
    expect(calls, `${story}. With less than MIN_ATTEMPT_MS (50) left after the reserve, nothing must be started.`).toBe(0);
    expect(r?.status, `${story}. Expected an immediate 504.`).toBe(504);
    expect(r!.ms, `${story}. Expected the 504 at once.`).toBeLessThan(limit);
  };
  check('A', '60', fromA, callsTo(stubB), 'called B');
  check('B', '60', fromB, callsTo(stubC), 'called C');
  check('C', '0', fromC, c.ticks.n, 'ticked');
});

test('S4 a transient failure below B is retried once, by A only', async () => {
  // C fails once with 503, then succeeds.
  const flakyC = await stub((res, n) => answer(n === 0 ? 503 : 200, n === 0 ? { error: 'overloaded' } : { work: 'done', ticks: 1 })(res));
  const b1 = await startB(flakyC.url, ROOMY);
  const a1 = await startA(b1.url, ROOMY);
  // C always fails with 503.
  const downC = await stub(answer(503, { error: 'overloaded' }));
  const b2 = await startB(downC.url, ROOMY);
  const a2 = await startA(b2.url, ROOMY);
  const [r1, r2] = await Promise.all([send(a1.url, roomy).reply, send(a2.url, roomy).reply]);
  await sleep(100);
  const story1 = `C answered 503 once, then 200. B received ${callsTo(b1)} call(s), C ${callsTo(flakyC)}; the user got ${showReply(r1)}`;
  expect([callsTo(b1), callsTo(flakyC)], `${story1}. Expected 2 calls at B and 2 at C: A retries once, B never retries.`).toEqual([2, 2]);
  expect(r1?.status, `${story1}. Expected the retry to succeed with 200.`).toBe(200);
  const story2 = `C always answered 503. B received ${callsTo(b2)} call(s), C ${callsTo(downC)}; the user got ${showReply(r2)}`;
  expect([callsTo(b2), callsTo(downC)], `${story2}. Expected 2 calls at B and 2 at C: one retry in the whole chain.`).toEqual([2, 2]);
  expect(r2?.status, `${story2}. Expected C's 503 passed up to the user.`).toBe(503);
});

test('S4 B never retries: one call to C, whatever C answers', async () => {
  const downC = await stub(answer(503, { error: 'overloaded' }));
  const b1 = await startB(downC.url, ROOMY);
  const droppingC = await stub(hangUp);
  const b2 = await startB(droppingC.url, ROOMY);
  const [r1, r2] = await Promise.all([send(b1.url, roomy).reply, send(b2.url, roomy).reply]);
  await sleep(100);
  expect(callsTo(downC), `B was called once and C answered 503; C received ${callsTo(downC)} calls (B answered ${showReply(r1)}). B must not retry.`).toBe(1);
  expect(r1?.status, `C answered 503 and B answered ${showReply(r1)}. Expected B to pass C's status up.`).toBe(503);
  expect(callsTo(droppingC), `B was called once and C dropped the connection; C received ${callsTo(droppingC)} calls (B answered ${showReply(r2)}). B must not retry.`).toBe(1);
  expect(r2?.status, `C dropped the connection and B answered ${showReply(r2)}. Expected 502.`).toBe(502);
});

test('S4 A retries a dropped connection to B once', async () => {
  const droppingB = await stub(hangUp);
  const a = await startA(droppingB.url, ROOMY);
  const r = await send(a.url, roomy).reply;
  await sleep(100);
  expect(callsTo(droppingB), `B dropped every connection; B received ${callsTo(droppingB)} call(s) from A (user got ${showReply(r)}). Expected 2: the first attempt and one retry.`).toBe(2);
  expect(r?.status, `B dropped every connection and the user got ${showReply(r)}. Expected 502.`).toBe(502);
});

test('S4 A does not retry when a whole attempt no longer fits in the budget', async () => {
  const slowB = await stub((res) => {
    const timer = setTimeout(() => answer(503, { error: 'overloaded' })(res), 240);
    res.once('close', () => clearTimeout(timer));
  });
  const a = await startA(slowB.url);
  const meter = stallMeter();
  const { reply, started } = send(a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  const r = await reply;
  await sleepUntil(started, DEADLINE + 200, meter);
  expect(
    callsTo(slowB),
    `B answered 503 after 240 ms of a 300 ms budget; B received ${callsTo(slowB)} call(s) (user got ${showReply(r)}). What is left after the reserve is below MIN_ATTEMPT_MS, so A must not retry.`,
  ).toBe(1);
});
