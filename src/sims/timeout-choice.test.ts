import { describe, expect, it } from 'vitest';
import { defaults } from './params.ts';
import { shareAbove } from './stats.ts';
import { sampleLatencies, timeoutChoice, type TimeoutChoiceParams } from './timeout-choice.ts';

const base = defaults(timeoutChoice.params) as TimeoutChoiceParams;
const summary = (p: TimeoutChoiceParams, seed = 1): Record<string, unknown> =>
  Object.fromEntries(timeoutChoice.run(p, seed).summary.map((s) => [s.key, s.value]));

describe('timeout-choice', () => {
  it('reports increasing percentiles with decreasing false-timeout rates', () => {
    const rows = timeoutChoice.run(base, 1).rows;
    for (let i = 1; i < rows.length; i++) {
      expect(rows[i]!.latencyMs).toBeGreaterThanOrEqual(rows[i - 1]!.latencyMs);
      expect(rows[i]!.falseTimeoutPct).toBeLessThanOrEqual(rows[i - 1]!.falseTimeoutPct);
    }
  });

  it('the timeout for a target rate cuts no more than that share of normal requests', () => {
    for (const target of [0.1, 1, 5]) {
      const p = { ...base, targetFalseTimeoutPct: target };
      const s = summary(p);
      const sorted = sampleLatencies(p, 1);
      expect(shareAbove(sorted, s.timeoutForTargetMs as number) * 100).toBeLessThanOrEqual(target + 0.001);
    }
  });

  it('padding scales the suggested timeout', () => {
    const s = summary({ ...base, paddingPct: 50 });
    expect(s.suggestedTimeoutMs as number).toBeCloseTo((s.timeoutForTargetMs as number) * 1.5, 0);
  });

  it('a longer chosen timeout gives fewer false timeouts', () => {
    const rates = [100, 200, 400, 800].map((t) => summary({ ...base, timeoutMs: t }).falseTimeoutPct as number);
    for (let i = 1; i < rates.length; i++) expect(rates[i]!).toBeLessThanOrEqual(rates[i - 1]!);
    expect(rates[0]!).toBeGreaterThan(rates[3]!);
  });

  it('without a tail, p99 matches the lognormal quantile median * exp(2.326 sigma)', () => {
    const p = { ...base, tailSharePct: 0 };
    const p99 = timeoutChoice.run(p, 1).rows.find((r) => r.percentile === 'p99')!.latencyMs;
    const expected = p.medianMs * Math.exp(2.3263 * p.spread);
    expect(Math.abs(p99 / expected - 1)).toBeLessThan(0.03);
  });

  it('a heavier tail pushes the far percentiles out', () => {
    const far = (alpha: number): number => timeoutChoice.run({ ...base, tailAlpha: alpha }, 1).rows.at(-1)!.latencyMs;
    expect(far(1)).toBeGreaterThan(far(3));
  });

  it('is reproducible with a seed and varies across seeds', () => {
    expect(timeoutChoice.run(base, 2).rows).toEqual(timeoutChoice.run(base, 2).rows);
    expect(timeoutChoice.run(base, 2).rows).not.toEqual(timeoutChoice.run(base, 3).rows);
  });
});
