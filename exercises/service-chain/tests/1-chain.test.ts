// The whole chain A -> B -> C: the budget on the wire, a healthy request, and a slow C under a
// 300 ms budget (one call to C, no work after the deadline).
import { afterEach, expect, test } from 'vitest';
import { cleanup, answer, callsTo, budgetSeen, MAX_STALL_ALLOWANCE, send, showReply, sleep, sleepUntil, stallMeter, stub, type Reply } from './harness.ts';
import { once, startA, startC, startChain } from './services.ts';

afterEach(cleanup);

const INT = /^[0-9]+$/;

/** A healthy request: C's job takes 30 ms (3 ticks), the user gives 1000 ms. */
const healthy = once(async () => {
  const chain = await startChain(30);
  const { reply } = send(chain.a.url, { 'x-deadline-ms': '1000' });
  const r = await reply;
  const ticksAtReply = chain.c.ticks.n;
  await sleep(50); // a late extra call would show here
  return { ...chain, reply: r, ticksAtReply };
});

/** C's job takes 2000 ms; the user gives 300 ms. Counts are read 150 ms and 500 ms after the deadline. */
const DEADLINE = 300;
const slow = once(async () => {
  const chain = await startChain(2000);
  const meter = stallMeter();
  const { reply, started } = send(chain.a.url, { 'x-deadline-ms': String(DEADLINE) }, { waitMs: DEADLINE + 1000 });
  let r: Reply | undefined;
  void reply.then((x) => (r = x));
  await sleepUntil(started, DEADLINE + 150, meter);
  const ticksSoonAfter = chain.c.ticks.n;
  await sleepUntil(started, DEADLINE + 500, meter);
  return { ...chain, reply: r, ticksSoonAfter, ticksLater: chain.c.ticks.n, callsB: callsTo(chain.b), callsC: callsTo(chain.c) };
});

test('S1 the remaining budget travels A -> B -> C, smaller at every hop', async () => {
  const { b, c, reply } = await healthy();
  const atB = budgetSeen(b);
  const atC = budgetSeen(c);
  const story = `The user sent x-deadline-ms: 1000 to A; B received ${atB ?? 'no x-deadline-ms header'}, C received ${atC ?? 'no x-deadline-ms header'} (user got ${showReply(reply)})`;
  expect(atB !== undefined && INT.test(atB), `${story}. B must receive a whole number of milliseconds.`).toBe(true);
  expect(Number(atB), `${story}. A must pass on what it has left minus RESERVE_MS (20): at most 980.`).toBeLessThanOrEqual(980);
  expect(Number(atB), `${story}. That is far less than A had left: is it in milliseconds?`).toBeGreaterThanOrEqual(500);
  expect(atC !== undefined && INT.test(atC), `${story}. C must receive a whole number of milliseconds.`).toBe(true);
  expect(Number(atC), `${story}. B must pass on what it has left minus 20 ms: at most ${Number(atB) - 20}.`).toBeLessThanOrEqual(Number(atB) - 20);
  expect(Number(atC), `${story}. That is far less than B had left: is it in milliseconds?`).toBeGreaterThanOrEqual(Number(atB) - 500);
});

test('S1 A adopts min(x-deadline-ms, budgetMs), and budgetMs when the header is missing or invalid', async () => {
  const b = await stub(answer(200, { work: 'done', ticks: 0 }));
  const a = await startA(b.url, 400);
  const cases: Array<[string, Record<string, string>, number, number]> = [
    ['no x-deadline-ms header', {}, 250, 380],
    ['x-deadline-ms: abc', { 'x-deadline-ms': 'abc' }, 250, 380],
    ['x-deadline-ms: 60000', { 'x-deadline-ms': '60000' }, 250, 380],
    ['x-deadline-ms: 250', { 'x-deadline-ms': '250' }, 100, 230],
  ];
  for (const [i, [label, headers, low, high]] of cases.entries()) {
    const r = await send(a.url, headers).reply;
    const got = budgetSeen(b, i);
    const story = `A was created with budgetMs: 400; the user sent ${label}; B received ${got === undefined ? 'no x-deadline-ms header' : `x-deadline-ms: ${got}`} (user got ${showReply(r)})`;
    expect(got !== undefined && INT.test(got), `${story}. Expected a whole number of milliseconds.`).toBe(true);
    expect(Number(got), `${story}. Expected at most ${high}: A's budget is min(header, budgetMs) (the header only when it is a plain integer), minus the 20 ms reserve.`).toBeLessThanOrEqual(high);
    expect(Number(got), `${story}. Expected about ${high}: that is far less than A had.`).toBeGreaterThanOrEqual(low);
  }
});

test('S5 a slow C under a 300 ms budget gets exactly one call', async () => {
  const { callsB, callsC, reply } = await slow();
  const story = `C's job takes 2000 ms and the user gave A 300 ms; by 800 ms B had received ${callsB} call(s) and C ${callsC} (user got ${showReply(reply)})`;
  expect(callsC, `${story}. Expected exactly one call to C: the first attempt uses the whole budget, so nobody may try again.`).toBe(1);
  expect(callsB, `${story}. Expected exactly one call to B.`).toBe(1);
});

test('S7 no work at C after the deadline', async () => {
  const { ticksSoonAfter, ticksLater, reply } = await slow();
  expect(
    ticksLater,
    `C's job takes 2000 ms and the user gave A 300 ms (user got ${showReply(reply)}). C had done ${ticksSoonAfter} ticks 150 ms after the deadline and ${ticksLater} ticks 500 ms after it: it was still working for a request nobody was waiting for.`,
  ).toBe(ticksSoonAfter);
});

test('S7 C stops at its own deadline even while its caller waits', async () => {
  const c = await startC(2000);
  const { reply, started } = send(c.url, { 'x-deadline-ms': '200' }, { waitMs: 1500 });
  const meter = stallMeter();
  await sleepUntil(started, 350, meter);
  const soon = c.ticks.n;
  await sleepUntil(started, 650, meter);
  const later = c.ticks.n;
  const r = await reply;
  const limit = 200 + 250 + Math.min(meter.stop(), MAX_STALL_ALLOWANCE);
  const story = `C (a 2000 ms job) was called directly with x-deadline-ms: 200 and the caller kept waiting; C had done ${soon} ticks at 350 ms and ${later} at 650 ms, and answered ${showReply(r)}`;
  expect(later, `${story}. C must stop working when its own deadline passes.`).toBe(soon);
  expect(r?.status, `${story}. Expected C to answer 504 once its deadline passed.`).toBe(504);
  expect(r!.ms, `${story}. Expected the 504 within about 200 ms (limit allowed on this machine: ${Math.round(limit)} ms).`).toBeLessThan(limit);
});

test('S8 a healthy request succeeds end to end', async () => {
  const { reply, b, c, ticksAtReply } = await healthy();
  const story = `The user gave 1000 ms and C's job takes 30 ms (3 ticks); the user got ${showReply(reply)}, with ${b.seen.length} call(s) to B, ${c.seen.length} to C and ${ticksAtReply} ticks at C`;
  expect(reply?.status, `${story}. Expected 200.`).toBe(200);
  let body: unknown;
  try {
    body = JSON.parse(reply!.body);
  } catch {
    body = reply!.body;
  }
  expect(body, `${story}. Expected C's body passed on unchanged: {"work":"done","ticks":3}.`).toEqual({ work: 'done', ticks: 3 });
  expect([b.seen.length, c.seen.length], `${story}. Expected one call to B and one to C.`).toEqual([1, 1]);
  expect(ticksAtReply, `${story}. Expected C to have done its 3 ticks.`).toBe(3);
});

test('S8 a request without x-deadline-ms succeeds on A\'s own budget', async () => {
  const chain = await startChain(30);
  const r = await send(chain.a.url).reply;
  expect(r?.status, `The user sent no x-deadline-ms (A's default budget is 1000 ms) for a 30 ms job and got ${showReply(r)}. Expected 200.`).toBe(200);
  let body: unknown;
  try {
    body = JSON.parse(r!.body);
  } catch {
    body = r!.body;
  }
  expect(body, `The user sent no x-deadline-ms and got ${showReply(r)}. Expected C's body {"work":"done","ticks":3}.`).toEqual({ work: 'done', ticks: 3 });
});
