// The whole chain A -> B -> C when it works: the budget on the wire, and a healthy request.
// These two rules run first, one after the other, each with its tests side by side: they hold a
// request to a time budget with no allowance for a busy machine (the budget's own margin is the
// allowance), so they run before the other rules' servers start (see service-chain.test.ts).
import { describe, expect } from 'vitest';
import { answer, budgetSeen, showReply, test, type Reply } from './harness.ts';
import { once, startA, startB, startChain, type Work } from './services.ts';

const INT = /^[0-9]+$/;

/** A healthy request: C's job takes 30 ms (3 steps), the user gives 1000 ms. */
const healthy = once(async (h) => {
  const chain = await startChain(h, 30);
  const { reply } = h.send(chain.a.url, { 'x-deadline-ms': '1000' });
  const r = await reply;
  await h.sleep(50); // a late extra call, or a step started after the answer, would show here
  return { ...chain, reply: r, startedLater: chain.c.work.started };
});

function bodyOf(r: Reply | undefined): unknown {
  try {
    return JSON.parse(r!.body);
  } catch {
    return r?.body;
  }
}

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
    const b = await h.stub(answer(200, { work: 'done', steps: 0 }));
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

  test.concurrent('S1 B adopts min(x-deadline-ms, budgetMs), and budgetMs when the header is missing or invalid', async ({ h }) => {
    const c = await h.stub(answer(200, { work: 'done', steps: 0 }));
    const b = await startB(h, c.url, 400);
    const cases: Array<[string, Record<string, string>, number, number]> = [
      ['x-deadline-ms: 60000', { 'x-deadline-ms': '60000' }, 250, 380],
      ['no x-deadline-ms header', {}, 250, 380],
      ['x-deadline-ms: 250', { 'x-deadline-ms': '250' }, 100, 230],
    ];
    for (const [i, [label, headers, low, high]] of cases.entries()) {
      const r = await h.send(b.url, headers).reply;
      const got = budgetSeen(c, i);
      const story = `B was created with budgetMs: 400; A sent ${label}; C received ${got === undefined ? 'no x-deadline-ms header' : `x-deadline-ms: ${got}`} (A got ${showReply(r)})`;
      expect(got !== undefined && INT.test(got), `${story}. Expected a whole number of milliseconds.`).toBe(true);
      expect(
        Number(got),
        `${story}. Expected at most ${high}: B's budget is min(header, budgetMs), its own budgetMs is a ceiling too, minus the 20 ms reserve.`,
      ).toBeLessThanOrEqual(high);
      expect(Number(got), `${story}. Expected about ${high}: that is far less than B had.`).toBeGreaterThanOrEqual(low);
    }
  });

  test.concurrent("S1 A's retry carries the new, smaller left", async ({ h }) => {
    // B answers 503 after SLOW_MS the first time, then 200: the retry must send what is left by then.
    const SLOW_MS = 120;
    const b = await h.stub((res, n) => {
      if (n > 0) return answer(200, { work: 'done', steps: 0 })(res);
      const timer = setTimeout(() => answer(503, { error: 'overloaded' })(res), SLOW_MS);
      res.once('close', () => clearTimeout(timer));
    });
    const a = await startA(h, b.url, 3000);
    const r = await h.send(a.url, { 'x-deadline-ms': '3000' }).reply;
    const [first, second] = [budgetSeen(b, 0), budgetSeen(b, 1)];
    const story = `B answered 503 ${SLOW_MS} ms into A's first attempt, then 200; B received x-deadline-ms: ${first ?? '(none)'}, then ${second ?? '(no second call)'} (user got ${showReply(r)})`;
    expect(
      second !== undefined && INT.test(second) && first !== undefined && INT.test(first),
      `${story}. Expected two calls, each with a whole number of milliseconds.`,
    ).toBe(true);
    expect(
      Number(second),
      `${story}. The retry must carry what A has left at that moment, at least ${SLOW_MS} ms less than the first attempt's left: measure left again before the retry.`,
    ).toBeLessThanOrEqual(Number(first) - SLOW_MS / 2);
  });
});

/** C's answer claimed its 3 steps: they must have run through step(), one at a time, before the answer left C. */
function expectStepsDone(story: string, work: Work) {
  expect(
    work.mostAtOnce,
    `${story}. C had ${work.mostAtOnce} steps running at the same moment: await each opts.step() before starting the next.`,
  ).toBeLessThanOrEqual(1);
  expect(
    work.doneAtAnswer,
    `${story}. C answered that it had done 3 steps when ${work.doneAtAnswer ?? 'none'} of the steps it ran through step() had finished: it must await opts.step() for each of them before it answers.`,
  ).toBe(3);
}

describe('S8 a healthy request still succeeds end to end', () => {
  test.concurrent('S8 a healthy request succeeds end to end', async ({ h }) => {
    const { reply, b, c, startedLater } = await healthy(h);
    const story = `The user gave 1000 ms and C's job takes 30 ms (3 steps); the user got ${showReply(reply)}, with ${b.seen.length} call(s) to B and ${c.seen.length} to C`;
    expect(reply?.status, `${story}. Expected 200.`).toBe(200);
    expect(bodyOf(reply), `${story}. Expected C's body passed on unchanged: {"work":"done","steps":3}.`).toEqual({ work: 'done', steps: 3 });
    expect([b.seen.length, c.seen.length], `${story}. Expected one call to B and one to C.`).toEqual([1, 1]);
    expectStepsDone(story, c.work);
    expect(startedLater, `${story}, and ${startedLater} steps had been started 50 ms later. Expected exactly 3.`).toBe(3);
  });

  test.concurrent("S8 a request without x-deadline-ms succeeds on A's own budget", async ({ h }) => {
    const chain = await startChain(h, 30);
    const r = await h.send(chain.a.url).reply;
    const story = `The user sent no x-deadline-ms (A's default budget is 1000 ms) for a 30 ms job and got ${showReply(r)}`;
    expect(r?.status, `${story}. Expected 200.`).toBe(200);
    expect(bodyOf(r), `${story}. Expected C's body {"work":"done","steps":3}.`).toEqual({ work: 'done', steps: 3 });
    expectStepsDone(story, chain.c.work);
  });
});
