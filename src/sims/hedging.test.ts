import { describe, expect, it } from 'vitest';
import { hedgeDelayMs, hedging, type HedgingParams, type HedgingRow } from './hedging.ts';
import { defaults } from './params.ts';

const base = defaults(hedging.params) as HedgingParams;
const run = (over: Record<string, number | boolean> = {}, seed = 1): { plain: HedgingRow; hedged: HedgingRow } => {
  const [plain, hedged] = hedging.run({ ...base, ...over } as HedgingParams, seed).rows;
  return { plain: plain!, hedged: hedged! };
};

describe('hedging at the defaults', () => {
  const { plain, hedged } = run();

  it('hedges after the p95 of normal latency', () => {
    expect(hedgeDelayMs(base)).toBe(base.minMs + 0.95 * (base.maxMs - base.minMs));
  });

  it('cuts p99 by about an order of magnitude and leaves p50 alone', () => {
    expect(plain.p99).toBe(base.slowMs);
    expect(plain.p99 / hedged.p99).toBeGreaterThan(8);
    expect(hedged.p999).toBeLessThan(hedgeDelayMs(base) + base.maxMs);
    expect(Math.abs(hedged.p50 - plain.p50)).toBeLessThan(1);
  });

  it('costs about the share of requests slower than the hedge delay', () => {
    const slow = base.slowSharePct / 100;
    const expected = 100 * (slow + (1 - slow) * (1 - base.hedgeAfterPercentile / 100));
    expect(Math.abs(hedged.extraRequestsPct - expected)).toBeLessThan(0.3);
    expect(plain.extraRequestsPct).toBe(0);
  });

  it('reports monotone percentiles', () => {
    for (const r of [plain, hedged]) {
      expect(r.p50).toBeLessThanOrEqual(r.p99);
      expect(r.p99).toBeLessThanOrEqual(r.p999);
    }
  });

  it('chart percentiles are monotone and hedged is never slower without load', () => {
    const chart = hedging.run(base, 1).charts[0]!;
    if (chart.kind === 'gantt') throw new Error('expected an xy chart');
    const [p, h] = chart.series;
    for (let i = 1; i < p!.y.length; i++) {
      expect(p!.y[i]!).toBeGreaterThanOrEqual(p!.y[i - 1]!);
      expect(h!.y[i]!).toBeGreaterThanOrEqual(h!.y[i - 1]!);
    }
    expect(h!.y.every((v, i) => v <= p!.y[i]!)).toBe(true);
  });
});

describe('hedging limits and overload', () => {
  it('never hedges more than the limit allows', () => {
    for (const limit of [0, 1, 3]) {
      const { hedged } = run({ maxHedgePct: limit });
      expect(hedged.extraRequestsPct).toBeLessThanOrEqual(limit + 0.1);
    }
    expect(run({ maxHedgePct: 0 }).hedged.p99).toBe(base.slowMs);
  });

  it('with a fixed delay under load, hedges pile up and everyone gets slower', () => {
    const { plain, hedged } = run({ utilisation: 0.6 });
    expect(hedged.extraRequestsPct).toBeGreaterThan(50);
    expect(hedged.utilisationPct).toBeGreaterThan(plain.utilisationPct);
    expect(hedged.p50).toBeGreaterThan(plain.p50 * 2);
  });

  it('a hedge limit contains the damage', () => {
    const unlimited = run({ utilisation: 0.6 }).hedged;
    const limited = run({ utilisation: 0.6, maxHedgePct: 5 }).hedged;
    expect(limited.p50).toBeLessThan(unlimited.p50);
    expect(limited.extraRequestsPct).toBeLessThanOrEqual(5.1);
  });

  it('even with an adaptive delay, the extra load slows the median when utilisation is high', () => {
    const { plain, hedged } = run({ utilisation: 0.9, adaptiveDelay: true });
    expect(hedged.p50).toBeGreaterThan(plain.p50 * 1.5);
    const light = run({ utilisation: 0.2, adaptiveDelay: true });
    expect(light.hedged.p50).toBeLessThan(light.plain.p50 * 1.1);
  });

  it('is reproducible with a seed and varies across seeds', () => {
    expect(run({}, 4)).toEqual(run({}, 4));
    expect(run({}, 4)).not.toEqual(run({}, 5));
  });

  it('rejects a normal latency range that is upside down', () => {
    expect(hedging.check?.({ ...base, minMs: 70, maxMs: 60 })?.en).toMatch(/maxMs/);
    expect(hedging.check?.(base)).toBeNull();
  });
});
