import { describe, expect, it } from 'vitest';
import { backoffBounds, JITTER_STRATEGIES } from './jitter.ts';
import { jitterWaves, runStrategy, type JitterWavesParams } from './jitter-waves.ts';
import { defaults } from './params.ts';

const base = defaults(jitterWaves.params) as JitterWavesParams;
const byStrategy = (rows: { strategy: string; busiestWindow: number }[]) => Object.fromEntries(rows.map((r) => [r.strategy, r]));

describe('jitter-waves', () => {
  const result = jitterWaves.run(base, 1);
  const rows = byStrategy(result.rows);

  it('conserves calls: with the dependency down every client makes 1 + retries calls', () => {
    for (const r of result.rows) {
      expect(r.totalCalls).toBe(base.clients * (1 + base.retries));
      expect(r.retries).toBe(base.clients * base.retries);
      expect(r.succeededClients).toBe(0);
    }
    const chart = result.charts[0]!;
    if (chart.kind === 'gantt') throw new Error('expected an xy chart');
    for (const s of chart.series) expect(s.y.reduce((a, b) => a + b, 0)).toBe(base.clients * base.retries);
  });

  it('without jitter every client retries in the same window', () => {
    expect(rows.none!.busiestWindow).toBe(base.clients);
  });

  it('jitter lowers the peak: full below equal, both far below none', () => {
    expect(rows.equal!.busiestWindow).toBeLessThan(base.clients / 5);
    expect(rows.full!.busiestWindow).toBeLessThan(rows.equal!.busiestWindow);
    expect(rows.none!.busiestWindow / rows.full!.busiestWindow).toBeGreaterThan(8);
  });

  it('every delay drawn respects its formula', () => {
    for (const s of JITTER_STRATEGIES) {
      const run = runStrategy(s, base, 3);
      expect(run.delays).toHaveLength(base.clients * base.retries);
      const bad = run.delays.filter(([n, prev, d]) => {
        const [lo, hi] = backoffBounds(s, n, prev, base);
        return d < lo || d > hi;
      });
      expect(bad).toEqual([]);
    }
  });

  it('with capacity, every client ends up served or out of retries, and calls add up', () => {
    const p = { ...base, capacityPerWindow: 20 };
    for (const s of JITTER_STRATEGIES) {
      const { row, delays } = runStrategy(s, p, 1);
      expect(row.succeededClients).toBeGreaterThan(0);
      expect(row.succeededClients).toBeLessThanOrEqual(p.clients);
      expect(row.totalCalls).toBe(p.clients + row.retries);
      expect(delays).toHaveLength(row.retries);
      // A client that never got through used all its retries.
      expect(row.totalCalls).toBeGreaterThanOrEqual(row.succeededClients + (p.clients - row.succeededClients) * (1 + p.retries));
    }
  });

  it('is reproducible with a seed and varies across seeds', () => {
    expect(JSON.stringify(jitterWaves.run(base, 7))).toBe(JSON.stringify(jitterWaves.run(base, 7)));
    expect(jitterWaves.run(base, 7).rows).not.toEqual(jitterWaves.run(base, 8).rows);
  });
});
