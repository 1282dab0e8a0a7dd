import { describe, expect, it } from 'vitest';
import { mulberry32, normalSource, substream } from './random.ts';

const take = (rng: () => number, n: number): number[] => Array.from({ length: n }, rng);

describe('mulberry32', () => {
  it('gives the same sequence for the same seed and a different one for another seed', () => {
    expect(take(mulberry32(42), 20)).toEqual(take(mulberry32(42), 20));
    expect(take(mulberry32(42), 20)).not.toEqual(take(mulberry32(43), 20));
  });

  it('stays in [0, 1) and is roughly uniform', () => {
    const xs = take(mulberry32(7), 100_000);
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean).toBeGreaterThan(0.49);
    expect(mean).toBeLessThan(0.51);
    const belowTenth = xs.filter((x) => x < 0.1).length / xs.length;
    expect(belowTenth).toBeGreaterThan(0.095);
    expect(belowTenth).toBeLessThan(0.105);
  });

  it('derives independent substreams per label', () => {
    expect(take(substream(1, 'a'), 5)).toEqual(take(substream(1, 'a'), 5));
    expect(take(substream(1, 'a'), 5)).not.toEqual(take(substream(1, 'b'), 5));
    expect(take(substream(1, 'a'), 5)).not.toEqual(take(substream(2, 'a'), 5));
  });
});

describe('normalSource', () => {
  it('has mean 0 and variance 1', () => {
    const g = normalSource(mulberry32(4));
    const xs = Array.from({ length: 50_000 }, g);
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length;
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length;
    expect(Math.abs(mean)).toBeLessThan(0.02);
    expect(Math.abs(variance - 1)).toBeLessThan(0.03);
    expect(xs.filter((x) => Math.abs(x) > 1.96).length / xs.length).toBeCloseTo(0.05, 2);
  });
});
