// F4, F5, F9: a required branch that fails or runs out of time, or the caller going away, ends
// the whole call at once, and every branch still running is aborted. Each rule's tests run side by
// side, each with its own scope (the `h` fixture, harness.ts).
import { describe, expect } from 'vitest';
import { fanOut, FanOutError } from '../src/fan-out.ts';
import { deadline, describeOutcome, ms, type Outcome, type Probe, type Scope, test } from './harness.ts';

function expectFanOutError(o: Outcome, reason: string, branch: string | undefined, situation: string) {
  expect(o.ok, `${situation}, so fanOut must reject, but ${describeOutcome(o)}`).toBe(false);
  const e = (o as any).error;
  expect(e instanceof FanOutError, `${situation}; ${describeOutcome(o)}, expected a FanOutError`).toBe(true);
  expect(e.reason, `${situation}; ${describeOutcome(o)}, expected reason "${reason}"`).toBe(reason);
  if (branch !== undefined) {
    expect(e.branch, `${situation}; ${describeOutcome(o)}, expected branch "${branch}"`).toBe(branch);
    expect(String(e.message), `${situation}; the error message ${JSON.stringify(e.message)} does not name the branch`).toContain(branch);
  }
}

async function expectAborted(h: Scope, probes: Probe[], situation: string) {
  for (const p of probes) {
    expect(p.calls, `${situation}, but branch "${p.name}" was never called`).toBe(1);
    expect(
      await h.abortsWithin(p.signal, 20),
      `${situation}, but the signal of branch "${p.name}" had not aborted 20 ms after fanOut settled: abort every branch still running`,
    ).toBe(true);
  }
}

describe('F4 a required failure fails fast', () => {
  test.concurrent('F4 rejects with the failing branch, without waiting for the others, and aborts them', async ({ h }) => {
    const { ctx } = deadline(5000);
    const failure = new Error('pricing answered 500');
    const b = h.branches([
      ['stock', true, 'hang'],
      ['price', true, { after: 30, error: failure }],
      ['slow', true, { after: 150, value: 1 }], // ignores its signal
      ['reviews', false, 'hang'],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    const situation = 'the required branch "price" rejected after 30 ms';
    expect(
      b.probes['slow']!.settledAt,
      `${situation}, but fanOut settled only after the branch "slow" (which ignores its signal) finished at ${ms(b.probes['slow']!.settledAt)}: do not wait for the other branches`,
    ).toBeUndefined();
    expectFanOutError(o, 'failed', 'price', situation);
    expect((o as any).error.cause, `${situation}; the FanOutError's cause should be the branch's own error`).toBe(failure);
    await expectAborted(h, [b.probes['stock']!, b.probes['slow']!, b.probes['reviews']!], situation);
  });

  // A synchronous throw of a branch (a bug in a client, a bad argument) is a failure like a
  // rejection: fanOut turns it into its own rejection, and neither lets it escape nor hands it on raw.
  test.concurrent('F4 a required branch that throws synchronously fails the call as a rejection, and the others are aborted', async ({ h }) => {
    const { ctx } = deadline(5000);
    const failure = new TypeError('bad argument to the pricing client');
    // Last in the list, so the branches before it have been called whatever fanOut then does.
    const b = h.branches([
      ['stock', true, 'hang'],
      ['reviews', false, 'hang'],
      ['price', true, { throws: failure }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    const situation = 'the required branch "price" threw synchronously when it was called';
    expectFanOutError(o, 'failed', 'price', situation);
    expect((o as any).error.cause, `${situation}; the FanOutError's cause should be the error it threw`).toBe(failure);
    await expectAborted(h, [b.probes['stock']!, b.probes['reviews']!], situation);
  });
});

describe('F5 a required timeout fails', () => {
  test.concurrent('F5 rejects with timed-out when a required branch runs past timeoutMs, even if it ignores its signal', async ({ h }) => {
    const { ctx } = deadline(80); // left = 60 ms
    const b = h.branches([
      ['price', true, { after: 0, value: 1 }],
      ['stock', true, { after: 150, value: 2 }], // ignores its signal
      ['recs', false, 'hang'],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    const situation = 'the required branch "stock" was still running when its 60 ms (remaining 80 minus reserve 20) ran out';
    expect(
      b.probes['stock']!.settledAt,
      `${situation}; fanOut settled only when "stock" finished at ${ms(b.probes['stock']!.settledAt)}: stop waiting at timeoutMs, whatever the branch does`,
    ).toBeUndefined();
    expectFanOutError(o, 'timed-out', 'stock', situation);
    expect(o.at >= 50, `${situation}, but fanOut rejected after only ${ms(o.at)}`).toBe(true);
    const abortedAt = b.probes['stock']!.abortedAt;
    expect(abortedAt !== undefined && abortedAt >= 50, `the signal of "stock" should abort once its 60 ms run out; it aborted ${ms(abortedAt)}`).toBe(true);
    await expectAborted(h, [b.probes['recs']!], situation);
  });

  test.concurrent('F5 reports timed-out (not failed) when the branch honours its signal and rejects at the timeout', async ({ h }) => {
    const { ctx } = deadline(80);
    const b = h.branches([['stock', true, { after: 150, value: 2, honours: true }]]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    expectFanOutError(o, 'timed-out', 'stock', 'the required branch "stock" ran out of its 60 ms and then rejected because its signal aborted');
  });
});

describe('F9 the caller aborting aborts everything', () => {
  test.concurrent('F9 rejects with aborted and calls nothing when the caller signal has already aborted', async ({ h }) => {
    const { ctx, controller } = deadline(5000);
    controller.abort(new Error('client went away'));
    const b = h.branches([
      ['price', true, { after: 0, value: 1 }],
      ['reviews', false, { after: 0, value: 2 }],
    ]);
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any));
    const called = Object.values(b.probes)
      .filter((p) => p.calls > 0)
      .map((p) => p.name);
    expect(called, `the caller's signal had already aborted, but these branches were called: ${called.join(', ')}`).toEqual([]);
    expectFanOutError(o, 'aborted', undefined, "the caller's signal had already aborted");
  });

  test.concurrent('F9 rejects with aborted at once when the caller signal aborts, and aborts every branch', async ({ h }) => {
    const { ctx, controller } = deadline(5000);
    const b = h.branches([
      ['price', true, 'hang'],
      ['stock', true, { after: 150, value: 1 }], // ignores its signal
      ['recs', false, 'hang'],
    ]);
    h.later(30, () => controller.abort(new Error('client went away')));
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any), 200); // the caller aborts at 30 ms
    const situation = "the caller's signal aborted after 30 ms";
    expect(
      b.probes['stock']!.settledAt,
      `${situation}, but fanOut settled only when "stock" (which ignores its signal) finished at ${ms(b.probes['stock']!.settledAt)}`,
    ).toBeUndefined();
    expectFanOutError(o, 'aborted', undefined, situation);
    await expectAborted(h, Object.values(b.probes), situation);
  });

  // The abort must win over what it causes: a helper that only passes the abort on to the branches
  // and lets their failures decide reports 'aborted' while a required branch runs (above), but
  // resolves with the optional branch "dropped" once only optional branches are left.
  test.concurrent('F9 rejects with aborted when the caller aborts while only an optional branch runs', async ({ h }) => {
    const { ctx, controller } = deadline(5000);
    const b = h.branches([
      ['price', true, { after: 5, value: 1 }],
      ['recs', false, 'hang'],
    ]);
    h.later(40, () => controller.abort(new Error('client went away')));
    const o = await h.observe(b.t0, () => fanOut(ctx, b.list as any), 200); // the caller aborts at 40 ms
    const situation = "the caller's signal aborted after 40 ms, when the required branch had answered and only the optional one was running";
    expectFanOutError(o, 'aborted', undefined, situation);
    await expectAborted(h, [b.probes['recs']!], situation);
  });
});
