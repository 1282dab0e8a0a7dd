// The whole chain A -> B -> C when it works: the budget on the wire, and a healthy request.
// Each describe is one rule and runs its tests concurrently (they wait on real servers); the rules
// run one after another, so a test that blocks the worker is still named with the right rule.
import { describe, expect } from 'vitest';
import { answer, budgetSeen, showReply, test } from './harness.ts';
import { once, startA, startChain } from './services.ts';

const INT = /^[0-9]+$/;

/** A healthy request: C's job takes 30 ms (3 ticks), the user gives 1000 ms. */
const healthy = once(async (h) => {
  const chain = await startChain(h, 30);
  const { reply } = h.send(chain.a.url, { 'x-deadline-ms': '1000' });
  const r = await reply;
  const ticksAtReply = chain.c.ticks.n;
  await h.sleep(50); // a late extra call would show here
  return { ...chain, reply: r, ticksAtReply };
});

describe('S1 the remaining budget travels with the request, hop by hop', () => {
  test.concurrent('S1 the remaining budget travels A -> B -> C, smaller at every hop', async ({ h }) => {
    const { b, c, reply } = await healthy(h);
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

  test.concurrent('S1 A adopts min(x-deadline-ms, budgetMs), and budgetMs when the header is missing or invalid', async ({ h }) => {
    const b = await h.stub(answer(200, { work: 'done', ticks: 0 }));
    const a = await startA(h, b.url, 400);
    const cases: Array<[string, Record<string, string>, number, number]> = [
      ['no x-deadline-ms header', {}, 250, 380],
      ['x-deadline-ms: abc', { 'x-deadline-ms': 'abc' }, 250, 380],
      ['x-deadline-ms: 60000', { 'x-deadline-ms': '60000' }, 250, 380],
      ['x-deadline-ms: 250', { 'x-deadline-ms': '250' }, 100, 230],
    ];
    for (const [i, [label, headers, low, high]] of cases.entries()) {
      const r = await h.send(a.url, headers).reply;
      const got = budgetSeen(b, i);
      const story = `A was created with budgetMs: 400; the user sent ${label}; B received ${got === undefined ? 'no x-deadline-ms header' : `x-deadline-ms: ${got}`} (user got ${showReply(r)})`;
      expect(got !== undefined && INT.test(got), `${story}. Expected a whole number of milliseconds.`).toBe(true);
      expect(
        Number(got),
        `${story}. Expected at most ${high}: A's budget is min(header, budgetMs) (the header only when it is a plain integer), minus the 20 ms reserve.`,
      ).toBeLessThanOrEqual(high);
      expect(Number(got), `${story}. Expected about ${high}: that is far less than A had.`).toBeGreaterThanOrEqual(low);
    }
  });
});

describe('S8 a healthy request still succeeds end to end', () => {
  test.concurrent('S8 a healthy request succeeds end to end', async ({ h }) => {
    const { reply, b, c, ticksAtReply } = await healthy(h);
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

  test.concurrent("S8 a request without x-deadline-ms succeeds on A's own budget", async ({ h }) => {
    const chain = await startChain(h, 30);
    const r = await h.send(chain.a.url).reply;
    expect(r?.status, `The user sent no x-deadline-ms (A's default budget is 1000 ms) for a 30 ms job and got ${showReply(r)}. Expected 200.`).toBe(200);
    let body: unknown;
    try {
      body = JSON.parse(r!.body);
    } catch {
      body = r!.body;
    }
    expect(body, `The user sent no x-deadline-ms and got ${showReply(r)}. Expected C's body {"work":"done","ticks":3}.`).toEqual({ work: 'done', ticks: 3 });
  });
});
