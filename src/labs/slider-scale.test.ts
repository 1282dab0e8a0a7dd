import { describe, expect, it } from 'vitest';
import { SIMS, type NumberParamSpec } from '../sims/index.ts';
import { isWide, nudge, sliderScale, snap } from './slider-scale.ts';

const numberSpecs = SIMS.flatMap((s) => s.params).filter((p): p is NumberParamSpec => p.kind === 'int' || p.kind === 'number');
const spec = (key: string) => numberSpecs.find((p) => p.key === key)!;

describe('slider positions', () => {
  it('uses a logarithmic slider only where a linear one would be unusable', () => {
    expect(isWide(spec('requests'))).toBe(true); // 1,000 to 1,000,000
    expect(isWide(spec('capacityPerWindow'))).toBe(true); // 0 to 100,000
    expect(isWide(spec('budgetPercent'))).toBe(false);
    expect(isWide(spec('layers'))).toBe(false);
  });

  it('reaches both ends of every range, stays in range and on the step grid, never goes backwards', () => {
    for (const p of numberSpecs) {
      const s = sliderScale(p);
      expect(s.fromSlider(s.min), p.key).toBe(p.min);
      expect(s.fromSlider(s.max), p.key).toBe(p.max);
      let previous = -Infinity;
      for (let pos = s.min; pos <= s.max; pos += (s.max - s.min) / 50) {
        const v = s.fromSlider(pos);
        expect(v, p.key).toBeGreaterThanOrEqual(p.min);
        expect(v, p.key).toBeLessThanOrEqual(p.max);
        expect(v, p.key).toBeGreaterThanOrEqual(previous);
        if (p.kind === 'int') expect(Number.isInteger(v), p.key).toBe(true);
        previous = v;
      }
      const at = s.toSlider(p.default);
      expect(at).toBeGreaterThanOrEqual(s.min);
      expect(at).toBeLessThanOrEqual(s.max);
    }
  });

  it('puts the default of a wide range near its value, not in the first pixel', () => {
    const s = sliderScale(spec('requests'));
    const v = s.fromSlider(s.toSlider(100_000));
    expect(v / 100_000).toBeGreaterThan(0.9);
    expect(v / 100_000).toBeLessThan(1.1);
    expect(s.toSlider(100_000)).toBeGreaterThan(300);
  });

  it('snaps to the step without float noise', () => {
    expect(snap(spec('thrashFactor'), 0.3500000001)).toBe(0.35);
    expect(snap(spec('hedgeAfterPercentile'), 95.26)).toBe(95.5);
  });
});

describe('the ± buttons', () => {
  it('move a logarithmic slider to the next nice value, never a jump across the range', () => {
    const capacity = spec('capacityPerTick');
    expect(isWide(capacity)).toBe(true);
    expect(nudge(capacity, 100, 1)).toBe(120);
    expect(nudge(capacity, 120, 1)).toBe(150);
    expect(nudge(capacity, 100, -1)).toBe(80);
    expect(nudge(capacity, 95, 1)).toBe(100);
    expect(nudge(capacity, capacity.max, 1)).toBe(capacity.max);
    expect(nudge(capacity, capacity.min, -1)).toBe(capacity.min);
  });

  it('step a linear slider by its step; stay in range and on the grid everywhere, and always move unless at an end', () => {
    expect(nudge(spec('budgetPercent'), 10, 1)).toBe(10 + (spec('budgetPercent').step ?? 1));
    for (const p of numberSpecs) {
      for (const dir of [1, -1] as const) {
        for (let i = 0; i <= 8; i++) {
          const v = snap(p, p.min + ((p.max - p.min) * i) / 8);
          const n = nudge(p, v, dir);
          expect(n, `${p.key} ${v} ${dir}`).toBeGreaterThanOrEqual(p.min);
          expect(n, `${p.key} ${v} ${dir}`).toBeLessThanOrEqual(p.max);
          expect(snap(p, n), p.key).toBe(n);
          if ((dir > 0 && v < p.max) || (dir < 0 && v > p.min)) expect(dir * (n - v), `${p.key} ${v} ${dir}`).toBeGreaterThan(0);
          // No more than a factor of 2 on a wide slider (away from zero), where one tap used to jump 20×.
          if (isWide(p) && v >= 10 && n > 0) expect(Math.max(n / v, v / n), `${p.key} ${v} ${dir}`).toBeLessThanOrEqual(2);
        }
      }
    }
  });
});
