import { describe, expect, it } from 'vitest';
import { SIMS, type NumberParamSpec } from '../sims/index.ts';
import { isWide, sliderScale, snap } from './slider-scale.ts';

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
