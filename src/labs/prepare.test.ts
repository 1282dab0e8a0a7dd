import { describe, expect, it } from 'vitest';
import { runSim } from '../sims/index.ts';
import { focusLabel, focusSpec, keyFigures, prepareView } from './prepare.ts';

describe('a lab view', () => {
  const storm = prepareView(runSim('retry-storm'), { maxPoints: 600, tableRows: 30 });

  it('puts every chart on one x array, thinned, with a data table', () => {
    for (const c of storm.charts) {
      if (c.kind === 'gantt') throw new Error('no gantt here');
      expect(c.data).toHaveLength(1 + c.series.length);
      expect(c.data[0].length).toBeLessThanOrEqual(600);
      expect(c.points).toBe(2500);
      expect(c.table.x.length).toBeGreaterThanOrEqual(30);
      expect(c.table.x.length).toBeLessThanOrEqual(30 + c.series.length);
    }
  });

  it('finds the rows a learner can highlight (policies, strategies, modes), none for the others', () => {
    expect(focusSpec(storm)?.key).toBe('policy');
    expect(focusSpec(storm)?.values).toContain('full-jitter-budget-10');
    expect(focusSpec(prepareView(runSim('jitter-waves')))?.key).toBe('strategy');
    expect(focusSpec(prepareView(runSim('hedging')))).toEqual({ key: 'mode', values: ['plain', 'hedged'] });
    expect(focusSpec(prepareView(runSim('amplification')))).toBeNull();
    expect(focusSpec(prepareView(runSim('deadline-chain')))).toBeNull();
    expect(focusLabel(storm, 'full-jitter-x3').en).toBe('Backoff + full jitter, 3 retries');
  });

  it('shows the highlighted row first among the key figures: the budget recovers, jitter alone does not', () => {
    const budget = keyFigures(storm, { key: 'policy', value: 'full-jitter-budget-10' });
    const jitter = keyFigures(storm, { key: 'policy', value: 'full-jitter-x3' });
    expect(budget.find((f) => f.key === 'row.recoveredAfterMs')?.value).toBe(0);
    expect(jitter.find((f) => f.key === 'row.recoveredAfterMs')?.value).toBeNull();
    expect(budget.some((f) => f.key === 'row.policy')).toBe(false);
    expect(keyFigures(storm, null)).toEqual(storm.summary);
  });
});
