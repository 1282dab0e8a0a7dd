// F10 is about the process: once the calls have settled, no timer of fanOut may keep it alive.
// The fan-outs run here, and the timers made while they run must all be gone (fired, cleared or
// unref()'d) once they have settled; ../test-support/timers.ts says how they are followed (every
// Timeout, node:timers ones too, where the runtime has async_hooks). A cleared timer, an unref()'d
// timer and AbortSignal.timeout (unref'd in Node) pass, and a live 60 s branch timer fails.
import { expect, test } from 'vitest';
import { fanOut } from '../src/fan-out.ts';
import { watchTimers } from '../test-support/timers.ts';

// A macrotask turn (setImmediate is Node's; a zero timer is the same everywhere else).
const turn = () => new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));

/** How long each fan-out below may take to settle: a correct one settles within a few ms (nothing in it waits). */
const SETTLE_MS = 250;

/** Settles with the call, or gives up after `ms` (its own timer is cleared either way). */
function settled(p: Promise<unknown>, ms: number): Promise<string> {
  return new Promise((resolve) => {
    const guard = setTimeout(() => resolve('still pending'), ms);
    p.then(
      () => (clearTimeout(guard), resolve('ok')),
      (e) => (clearTimeout(guard), resolve(String(e?.reason ?? e))),
    );
  });
}

const hangUntilAborted = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
const failNow = async () => {
  throw new Error('down');
};

/** Five rounds of a success, a required failure, an optional failure and a caller abort, 60 s budgets. */
async function fanOutsInProcess(): Promise<string[]> {
  const ctx = { signal: new AbortController().signal, remaining: () => 60_000 };
  const outcomes: string[] = [];
  for (let round = 0; round < 5; round++) {
    outcomes.push(
      await settled(
        fanOut(
          ctx,
          [
            { name: 'a', required: true, call: async () => 1 },
            { name: 'b', required: false, call: async () => 2 },
          ],
          { optionalCutoffMs: 30_000 },
        ),
        SETTLE_MS,
      ),
    );
    outcomes.push(
      await settled(
        fanOut(ctx, [
          { name: 'a', required: true, call: failNow },
          { name: 'b', required: false, call: hangUntilAborted },
          { name: 'c', required: true, call: hangUntilAborted },
        ]),
        SETTLE_MS,
      ),
    );
    outcomes.push(
      await settled(
        fanOut(ctx, [
          { name: 'a', required: false, call: failNow },
          { name: 'b', required: true, call: async () => 3 },
        ]),
        SETTLE_MS,
      ),
    );
    const caller = new AbortController();
    const aborted = settled(fanOut({ signal: caller.signal, remaining: () => 45_000 }, [{ name: 'a', required: true, call: hangUntilAborted }]), SETTLE_MS);
    await turn();
    caller.abort(new Error('client went away'));
    outcomes.push(await aborted);
    if (outcomes.includes('still pending')) break; // nothing more to learn, and each costs SETTLE_MS
  }
  return outcomes;
}

/** Timers can only be judged once the calls behave: a success resolves and every call settles. */
function expectJudgeable(outcomes: string[]) {
  expect(
    outcomes[0] === 'ok' && !outcomes.includes('still pending'),
    `F10 could not be checked yet: the fan-outs it runs ended with ${[...new Set(outcomes)].join(', ')}. A plain success must resolve and every call must settle within ${SETTLE_MS} ms; fix the other rules first.`,
  ).toBe(true);
}

const LEAK_MESSAGE = 'a timer of fanOut keeps the process alive. Clear every timer when the call settles (success or failure), or unref() it.';

test('F10 no timer of fanOut keeps the process alive once the calls have settled', async () => {
  const timers = watchTimers();
  try {
    await turn();
    const before = timers.live().length;
    const outcomes = await fanOutsInProcess();
    timers.seal();
    expectJudgeable(outcomes);
    await turn();
    await turn();
    let leaked = timers.live().length - before;
    if (leaked > 0) {
      // The test runner may have a short timer of its own pending; a leaked 60 s timer stays.
      await new Promise((resolve) => setTimeout(resolve, 250));
      leaked = timers.live().length - before;
    }
    // Every kind of fan-out ran five times, so a leak on any one path leaves at least five timers.
    expect(
      leaked < 5,
      `twenty fan-outs with 60 s budgets (successes, required failures, optional failures, caller aborts: ${[...new Set(outcomes)].join(', ')}) had all settled, but ${leaked} more timers were keeping the process alive than before: ${LEAK_MESSAGE}`,
    ).toBe(true);
  } finally {
    timers.stop();
  }
}, 6000);
