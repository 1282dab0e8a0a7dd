import { describe, expect, it } from 'vitest';
import { backoffBounds, backoffDelay, JITTER_STRATEGIES } from './jitter.ts';
import { mulberry32 } from './random.ts';

const configs = [
  { baseMs: 1000, capMs: 20_000 },
  { baseMs: 100, capMs: 1_000 },
  { baseMs: 50, capMs: 50 },
];

describe('backoff delays', () => {
  for (const strategy of JITTER_STRATEGIES) {
    it(`${strategy}: every delay falls within its formula's bounds and under the cap`, () => {
      const rng = mulberry32(11);
      const violations: string[] = [];
      let checked = 0;
      for (const cfg of configs) {
        for (let client = 0; client < 500; client++) {
          let previous = cfg.baseMs;
          for (let attempt = 0; attempt < 12; attempt++) {
            const d = backoffDelay(strategy, attempt, previous, cfg, rng);
            const [lo, hi] = backoffBounds(strategy, attempt, previous, cfg);
            checked++;
            if (!(d >= lo && d <= hi && d <= cfg.capMs)) violations.push(`${JSON.stringify(cfg)} n=${attempt} prev=${previous}: ${d} not in [${lo}, ${hi}]`);
            previous = d;
          }
        }
      }
      expect(checked).toBe(configs.length * 500 * 12);
      expect(violations.slice(0, 5)).toEqual([]);
    });
  }

  it('no jitter is exactly min(cap, base * 2^n)', () => {
    const rng = mulberry32(1);
    expect([0, 1, 2, 3, 5].map((n) => backoffDelay('none', n, 0, { baseMs: 100, capMs: 1000 }, rng))).toEqual([100, 200, 400, 800, 1000]);
  });

  it('full jitter averages half the exponential delay, equal jitter three quarters', () => {
    const rng = mulberry32(5);
    const cfg = { baseMs: 1000, capMs: 60_000 };
    const mean = (s: 'full' | 'equal'): number => {
      let sum = 0;
      for (let i = 0; i < 20_000; i++) sum += backoffDelay(s, 2, cfg.baseMs, cfg, rng);
      return sum / 20_000;
    };
    expect(mean('full')).toBeGreaterThan(1900);
    expect(mean('full')).toBeLessThan(2100);
    expect(mean('equal')).toBeGreaterThan(2900);
    expect(mean('equal')).toBeLessThan(3100);
  });

  it('decorrelated jitter grows from the previous sleep: random(base, previous * 3)', () => {
    const rng = mulberry32(9);
    const cfg = { baseMs: 100, capMs: 1e9 };
    for (let i = 0; i < 1000; i++) {
      const d = backoffDelay('decorrelated', 0, 500, cfg, rng);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(1500);
    }
  });
});
