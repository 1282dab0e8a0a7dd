import { describe, expect, test } from 'vitest';
import { callWithRetries } from '../src/budget.ts';
import { describeError, scriptedAttempt, settle, spyBudget, started } from './helpers.ts';

const fail = (n: number) => new Error(`attempt ${n} failed`);
const withoutDeposits = (log: string[]) => log.filter((entry) => entry !== 'deposit');

describe('callWithRetries', () => {
  test('T6 deposits once per call, before the first attempt', async () => {
    const log: string[] = [];
    await settle(() => callWithRetries(spyBudget(log), scriptedAttempt(log, ['ok'])));
    expect(log, 'budget and attempt calls for a call that succeeds at once').toEqual(['deposit', 'attempt']);
  });

  test('T6 a call with three attempts still deposits only once', async () => {
    const log: string[] = [];
    await settle(() => callWithRetries(spyBudget(log), scriptedAttempt(log, [fail(1), fail(2), 'ok'])));
    expect(log.filter((e) => e === 'deposit').length, `deposits for one call that made three attempts (calls: ${log.join(', ')})`).toBe(1);
    expect(log[0], 'the first thing a call does').toBe('deposit');
  });

  test('T6 every call deposits', async () => {
    const log: string[] = [];
    const budget = spyBudget(log);
    for (let i = 0; i < 3; i++) await settle(() => callWithRetries(budget, scriptedAttempt(log, [fail(1), 'ok'])));
    expect(log.filter((e) => e === 'deposit').length, 'deposits for three calls of two attempts each').toBe(3);
  });

  test('T7 asks the budget once before each retry and returns the success', async () => {
    const log: string[] = [];
    const outcome = await settle(() => callWithRetries(spyBudget(log), scriptedAttempt(log, [fail(1), fail(2), 'ok'])));
    expect(outcome.ok ? outcome.value : describeError(outcome.error), 'outcome of fail, fail, success').toBe('ok');
    expect(withoutDeposits(log), 'attempt and trySpend calls for fail, fail, success').toEqual(['attempt', 'trySpend', 'attempt', 'trySpend', 'attempt']);
  });

  test('T7 spends no token once maxAttempts is reached, and rejects with the last error', async () => {
    for (const maxAttempts of [1, 3, 4]) {
      const log: string[] = [];
      const errors = [1, 2, 3, 4].map(fail);
      const outcome = await settle(() => callWithRetries(spyBudget(log), scriptedAttempt(log, errors), { maxAttempts }));
      expect(outcome.ok, `a call whose attempts all fail (maxAttempts ${maxAttempts}) resolved`).toBe(false);
      expect(log.filter((e) => e === 'attempt').length, `attempts with maxAttempts ${maxAttempts}`).toBe(maxAttempts);
      expect(log.filter((e) => e === 'trySpend').length, `trySpend calls with maxAttempts ${maxAttempts} (one per retry sent)`).toBe(maxAttempts - 1);
      if (!outcome.ok) expect(outcome.error, `rejection with maxAttempts ${maxAttempts}: the last attempt's own error`).toBe(errors[maxAttempts - 1]);
    }
  });

  test('T7 the default maxAttempts is 3', async () => {
    const log: string[] = [];
    await settle(() => callWithRetries(spyBudget(log), scriptedAttempt(log, [1, 2, 3, 4, 5].map(fail))));
    expect(withoutDeposits(log), 'attempt and trySpend calls with the default maxAttempts').toEqual(['attempt', 'trySpend', 'attempt', 'trySpend', 'attempt']);
  });

  test('T7 a refused token stops the retries and rejects with the last error', async () => {
    for (const answers of [[false], [true, false]]) {
      const log: string[] = [];
      const errors = [1, 2, 3, 4, 5].map(fail);
      const outcome = await settle(() => callWithRetries(spyBudget(log, answers), scriptedAttempt(log, errors), { maxAttempts: 5 }));
      const sent = answers.length;
      expect(outcome.ok, `a call whose budget refuses trySpend number ${sent} resolved`).toBe(false);
      expect(log.filter((e) => e === 'attempt').length, `attempts when trySpend number ${sent} is refused`).toBe(sent);
      expect(log.filter((e) => e === 'trySpend').length, `trySpend calls when trySpend number ${sent} is refused`).toBe(sent);
      if (!outcome.ok) expect(outcome.error, `rejection when trySpend number ${sent} is refused: the error of attempt ${sent}`).toBe(errors[sent - 1]);
    }
  });

  // An attempt() that throws instead of returning a promise (a client that checks its arguments
  // first) has failed like one that rejects. A callWithRetries written as attempt().catch(…) lets the
  // first such throw out of the call itself, and a later one end the call without the retries left;
  // settle() and any await take the first for a rejection.
  test('T7 an attempt that throws synchronously has failed like one that rejects', async () => {
    const thrown = [1, 2, 3].map((n) => new TypeError(`attempt ${n} threw`));
    const cases: Array<[string, Array<'throws' | 'ok'>, string[]]> = [
      ['the first attempt threw synchronously, the second resolved', ['throws', 'ok'], ['attempt', 'trySpend', 'attempt']],
      ['every attempt threw synchronously (maxAttempts 3)', ['throws', 'throws', 'throws'], ['attempt', 'trySpend', 'attempt', 'trySpend', 'attempt']],
    ];
    for (const [what, plan, calls] of cases) {
      const log: string[] = [];
      let n = 0;
      const attempt = (): Promise<string> => {
        log.push('attempt');
        const i = n++;
        if (plan[i] === 'throws') throw thrown[i];
        return Promise.resolve('ok');
      };
      const call = started(() => callWithRetries(spyBudget(log), attempt, { maxAttempts: 3 }), what);
      const outcome = await settle(() => call);
      expect(withoutDeposits(log), `${what}: attempt and trySpend calls`).toEqual(calls);
      if (plan.includes('ok')) expect(outcome.ok ? outcome.value : describeError(outcome.error), `${what}: the outcome`).toBe('ok');
      else expect(outcome.ok ? 'a value' : outcome.error, `${what}: the rejection is the last attempt's own error`).toBe(thrown[2]);
    }
  });
});
