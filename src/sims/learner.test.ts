// "Use my code": a learner's exercise code run as one more policy of a simulation. The reference
// solutions must give exactly the figures of the built-in policy they implement; a buggy variant
// must change what the lesson is about; a missing export or a throw stops only that policy.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { buggyVariant } from '../grading/node/testing/proof-catalogue.ts';
import { defaults } from './params.ts';
import { getSim, runSim, SimParamError } from './registry.ts';
import type { LearnerCode } from './learner.ts';
import type { Row } from './types.ts';

const dir = mkdtempSync(join(tmpdir(), 'learner-sim-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REFERENCE: Record<string, string> = {
  backoff: 'backoff.ts',
  'retry-budget': 'budget.ts',
  'retry-helper': 'retry.ts',
  'adaptive-throttle': 'throttle.ts',
  'timeout-choice': 'timeout-choice.ts',
};
const reference = (exercise: string) => readFileSync(`solutions/${exercise}/${REFERENCE[exercise]}`, 'utf8');

/** The learner's code as the simulation gets it: a module's exports. */
async function code(exercise: string, text = reference(exercise), notPassing = false): Promise<LearnerCode> {
  const file = join(dir, `${exercise}-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, text);
  return { exercise, exports: (await import(file)) as Record<string, unknown>, notPassing };
}
const variant = (exercise: string, name: string) => buggyVariant(exercise, name, { [REFERENCE[exercise]!]: reference(exercise) }).files[REFERENCE[exercise]!]!;

const key = (r: Row) => String(r.policy ?? r.strategy);
const rowOf = (rows: Row[], id: string) => {
  const row = rows.find((r) => key(r) === id);
  if (!row) throw new Error(`no row ${id}`);
  const { policy: _p, strategy: _s, ...figures } = row;
  return figures;
};

describe('the reference solutions give exactly the figures of the built-in policy they implement', () => {
  const cases: Array<[sim: string, exercise: string, builtIn: string, params?: Record<string, unknown>]> = [
    ['retry-storm', 'backoff', 'full-jitter-x3'],
    ['retry-storm', 'retry-budget', 'full-jitter-budget-10'],
    ['retry-storm', 'retry-budget', 'full-jitter-budget-10', { budgetPercent: 3, outageS: 30 }],
    ['retry-storm', 'retry-helper', 'full-jitter-budget-10'],
    ['jitter-waves', 'backoff', 'full'],
    ['jitter-waves', 'backoff', 'equal', { yoursStrategy: 'equal' }],
    ['jitter-waves', 'backoff', 'decorrelated', { yoursStrategy: 'decorrelated', capacityPerWindow: 5 }],
    ['jitter-waves', 'backoff', 'none', { yoursStrategy: 'none' }],
    ['overload-recovery', 'adaptive-throttle', 'retries-throttle'],
    ['overload-recovery', 'adaptive-throttle', 'retries-throttle', { throttleWindowS: 10 }],
    ['reconnect-storm', 'backoff', 'full-jitter'],
    ['reconnect-storm', 'backoff', 'full-jitter', { deploy: 'rolling', refusedCostPct: 2, reconnectAtOnce: true, backoffCapMs: 5000 }],
  ];
  for (const [sim, exercise, builtIn, params = {}] of cases) {
    test(`${sim}: ${exercise} as "${builtIn}" ${JSON.stringify(params)}`, async () => {
      const result = runSim(sim, params, 1, [await code(exercise)]);
      expect(result.learner?.[0]?.error).toBeUndefined();
      expect(rowOf(result.rows, `yours-${exercise}`)).toEqual(rowOf(result.rows, builtIn));
      // Its curve is drawn beside the others, and the sentence compares it with the built-in one.
      for (const chart of result.charts)
        if (chart.kind !== 'gantt')
          expect(
            chart.series.some((s) => s.id === `yours-${exercise}`),
            chart.id,
          ).toBe(true);
      expect(result.learner![0]!.comparison!.en).toMatch(/same moment|exactly as many|Neither your code/);
      expect(result.learner![0]!.comparison!.vi).not.toBe(result.learner![0]!.comparison!.en);
    });
  }

  test('timeout-choice: timeoutFor picks the lab’s sample, rounded up to a whole millisecond', async () => {
    const result = runSim('timeout-choice', {}, 1, [await code('timeout-choice')]);
    const lab = result.summary.find((s) => s.key === 'timeoutForTargetMs')!.value as number;
    expect(result.summary.find((s) => s.key === 'yoursTimeoutMs')!.value).toBe(Math.ceil(lab));
    expect(result.learner![0]!.comparison!.en).toContain('rounded up to a whole millisecond');
  });

  test('the built-in figures do not change when learner code runs beside them', async () => {
    const alone = runSim('retry-storm', {}, 1);
    const beside = runSim('retry-storm', {}, 1, [await code('retry-budget')]);
    expect(beside.rows.slice(0, alone.rows.length)).toEqual(alone.rows);
  });
});

describe('buggy code changes what the lesson is about', () => {
  test('backoff without jitter brings the synchronized wave back (jitter-waves) and keeps the storm going (retry-storm)', async () => {
    const noJitter = await code('backoff', variant('backoff', 'no-jitter'), true);
    const waves = runSim('jitter-waves', {}, 1, [noJitter]);
    const yours = rowOf(waves.rows, 'yours-backoff');
    expect(yours.busiestWindow).toBe(rowOf(waves.rows, 'none').busiestWindow);
    expect(yours.busiestWindow as number).toBeGreaterThan(5 * (rowOf(waves.rows, 'full').busiestWindow as number));
    expect(waves.learner![0]!.label.en).toContain('not yet passing its tests');
    expect(waves.learner![0]!.comparison!.en).toMatch(/against 86 for the lab's Full jitter/);
    // A short outage the lab's full jitter gets over in 1.6 s: the synchronized waves take longer.
    const storm = runSim('retry-storm', { outageS: 20, capacityPerTick: 200 }, 1, [noJitter]);
    expect(rowOf(storm.rows, 'yours-backoff').recoveredAfterMs as number).toBeGreaterThan(rowOf(storm.rows, 'full-jitter-x3').recoveredAfterMs as number);
    expect(rowOf(storm.rows, 'yours-backoff')).toEqual(rowOf(storm.rows, 'exp-no-jitter-x3'));
    expect(storm.learner![0]!.comparison!.en).toMatch(/^Your code recovered [\d.]+ s later than "Backoff \+ full jitter, 3 retries"\.$/);
  });

  test('backoff without jitter brings the synchronized reconnect waves back (reconnect-storm)', async () => {
    const result = runSim('reconnect-storm', {}, 1, [await code('backoff', variant('backoff', 'no-jitter'), true)]);
    const yours = rowOf(result.rows, 'yours-backoff');
    expect(yours).toEqual(rowOf(result.rows, 'exp-backoff'));
    expect(yours.peakAttemptsPerS as number).toBeGreaterThan(5 * (rowOf(result.rows, 'full-jitter').peakAttemptsPerS as number));
    expect(result.learner![0]!.comparison!.en).toMatch(
      /^Your code did not reconnect the whole fleet within the 120 s observed; "Backoff \+ full jitter" did after [\d.]+ s; a peak of 10000 attempts\/s against \d+ for "Backoff \+ full jitter"\.$/,
    );
  });

  test('a budget without a cap saves up a burst of retries: it recovers later than the lab’s', async () => {
    const uncapped = await code('retry-budget', variant('retry-budget', 'no-cap'), true);
    const result = runSim('retry-storm', { budgetPercent: 50 }, 1, [uncapped]);
    const yours = rowOf(result.rows, 'yours-retry-budget');
    const theirs = rowOf(result.rows, 'full-jitter-budget-10');
    expect(yours).not.toEqual(theirs);
    expect(result.learner![0]!.comparison!.en).toMatch(/later than/);
  });

  test('a throttle that counts only the requests it sent (A3) throttles differently from the lab’s', async () => {
    const result = runSim('overload-recovery', { throttleWindowS: 10 }, 1, [
      await code('adaptive-throttle', variant('adaptive-throttle', 'counts-only-sent'), true),
    ]);
    expect(rowOf(result.rows, 'yours-adaptive-throttle')).not.toEqual(rowOf(result.rows, 'retries-throttle'));
  });
});

describe('problems in the learner’s code stop only its policy, with the reason in both languages', () => {
  test('a missing export', async () => {
    const result = runSim('retry-storm', {}, 1, [await code('backoff', 'export const nothing = 1;\n')]);
    expect(result.learner![0]!.error).toEqual({
      vi: 'Code của bạn cho bài backoff không export fullJitterDelay, mà simulation này cần.',
      en: 'Your code for backoff exports no fullJitterDelay, which this simulation needs.',
    });
    expect(result.rows.map(key)).not.toContain('yours-backoff');
    expect(result.rows).toHaveLength(6);
  });

  test('a throw, and a value no simulation can wait', async () => {
    const throwing = await code('backoff', "export function fullJitterDelay(): number { throw new RangeError('nope'); }\n");
    expect(runSim('retry-storm', {}, 1, [throwing]).learner![0]!.error!.en).toBe('Your fullJitterDelay threw: RangeError: nope');
    const nan = await code('backoff', 'export function fullJitterDelay(): number { return NaN; }\n');
    expect(runSim('retry-storm', {}, 1, [nan]).learner![0]!.error!.vi).toBe('fullJitterDelay của bạn trả về NaN, không phải một số hữu hạn >= 0.');
    const budget = await code('retry-budget', 'export class RatioRetryBudget { constructor() { throw new Error("no"); } }\n');
    expect(runSim('retry-storm', {}, 1, [budget]).learner![0]!.error!.en).toContain(
      'Your new RatioRetryBudget({ ratio: 0.1, maxTokens: 80 }) threw: Error: no',
    );
  });

  test('the same seed and code give the same figures; code for an exercise the simulation cannot use is refused', async () => {
    const c = await code('adaptive-throttle');
    expect(JSON.stringify(runSim('overload-recovery', { throttleWindowS: 10 }, 4, [c]))).toBe(
      JSON.stringify(runSim('overload-recovery', { throttleWindowS: 10 }, 4, [c])),
    );
    expect(() => runSim('hedging', {}, 1, [{ exercise: 'hedged-fetch', exports: {} }])).toThrow(SimParamError);
    expect(() => runSim('retry-storm', {}, 1, [{ exercise: 'timeout-choice', exports: {} }])).toThrow(/can run code for: backoff, retry-budget, retry-helper/);
  });

  test('the lab shows the learner-only parameter only with learner code; every simulation says which exercises it runs', () => {
    expect(getSim('jitter-waves')!.params.find((p) => p.key === 'yoursStrategy')?.learnerOnly).toBe(true);
    expect(defaults(getSim('jitter-waves')!.params).yoursStrategy).toBe('full');
    const can = Object.fromEntries(
      ['jitter-waves', 'retry-storm', 'overload-recovery', 'timeout-choice', 'hedging', 'reconnect-storm'].map((s) => [s, getSim(s)!.learnerExercises ?? []]),
    );
    expect(can).toEqual({
      'jitter-waves': ['backoff'],
      'retry-storm': ['backoff', 'retry-budget', 'retry-helper'],
      'overload-recovery': ['adaptive-throttle'],
      'timeout-choice': ['timeout-choice'],
      hedging: [],
      'reconnect-storm': ['backoff'],
    });
  });
});
