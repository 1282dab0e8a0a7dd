import { describe, expect, it } from 'vitest';
import { runSim, type Series } from '../sims/index.ts';
import { aboveTop, alignSeries, extent, tableIndices, thinAligned } from './thin.ts';

const s = (id: string, x: number[], y: number[]): Series => ({ id, label: { vi: id, en: id }, x, y });

describe('chart data', () => {
  it('aligns series with different x arrays, leaving gaps as null', () => {
    const a = alignSeries([s('a', [0, 50, 100], [1, 2, 3]), s('b', [50, 150], [9, 8])]);
    expect(a.x).toEqual([0, 50, 100, 150]);
    expect(a.ys).toEqual([
      [1, 2, 3, null],
      [null, 9, null, 8],
    ]);
  });

  it('thins a long storm series to the limit without losing any peak or the ends', () => {
    const chart = runSim('retry-storm', { observeS: 600 }).charts[0]!;
    if (chart.kind === 'gantt') throw new Error('expected an XY chart');
    const full = alignSeries(chart.series);
    const thin = thinAligned(full, 800);
    expect(full.x.length).toBeGreaterThan(6000);
    expect(thin.x.length).toBeLessThanOrEqual(800);
    expect(thin.x[0]).toBe(full.x[0]);
    expect(thin.x.at(-1)).toBe(full.x.at(-1));
    for (let i = 1; i < thin.x.length; i++) expect(thin.x[i]!).toBeGreaterThan(thin.x[i - 1]!);
    full.ys.forEach((y, k) => {
      const vals = y.filter((v): v is number => v !== null);
      const kept = thin.ys[k]!.filter((v): v is number => v !== null);
      expect(Math.max(...kept)).toBe(Math.max(...vals));
      expect(Math.min(...kept)).toBe(Math.min(...vals));
    });
  });

  it('leaves short series alone', () => {
    const a = alignSeries([s('a', [1, 2, 3], [3, 1, 2])]);
    expect(thinAligned(a, 10)).toBe(a);
  });

  it('samples a readable table that still contains every series peak', () => {
    const a = alignSeries([
      s(
        'a',
        Array.from({ length: 1000 }, (_, i) => i),
        Array.from({ length: 1000 }, (_, i) => (i === 333 ? 99 : 1)),
      ),
    ]);
    const rows = tableIndices(a, 20);
    expect(rows.length).toBeLessThanOrEqual(21);
    expect(rows).toContain(333);
    expect(rows[0]).toBe(0);
    expect(rows.at(-1)).toBe(999);
  });

  it('gives the y range of every series, and finds each series that leaves the top of the chart with its peak', () => {
    const ys = [
      [0, 3, null, 2],
      [1, 36, 30, 4],
    ];
    expect(extent(ys)).toEqual([0, 36]);
    expect(extent([[null]])).toEqual([0, 1]);
    expect(aboveTop(ys, 30)).toEqual([{ series: 1, first: 1, peak: 36 }]);
    expect(aboveTop(ys, 36)).toEqual([]);
    // retry-storm's default load chart: its 36x peak is in the data the chart draws.
    const load = runSim('retry-storm', {}, 1).charts.find((c) => c.id === 'load')!;
    if (load.kind === 'gantt') throw new Error('load is an XY chart');
    const thin = thinAligned(alignSeries(load.series), 1600);
    expect(extent(thin.ys)[1]).toBe(36);
  });
});
