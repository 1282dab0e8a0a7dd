import { describe, expect, it } from 'vitest';
import { mulberry32 } from './random.ts';
import { percentile, percentileSorted, shareAbove, sortInPlace, sortedCopy, windowCounts } from './stats.ts';

describe('percentile (nearest rank)', () => {
  const oneToTen = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];

  it('returns the smallest value with at least p% of the data at or below it', () => {
    expect(percentile(oneToTen, 50)).toBe(5);
    expect(percentile(oneToTen, 90)).toBe(9);
    expect(percentile(oneToTen, 91)).toBe(10);
    expect(percentile(oneToTen, 100)).toBe(10);
    expect(percentile(oneToTen, 0)).toBe(1);
    expect(percentile([], 50)).toBeNaN();
  });

  it('is always a data point, so a 2% plateau owns p99', () => {
    const xs = [...Array.from({ length: 98 }, (_, i) => i), 1000, 1000];
    expect(percentile(xs, 99)).toBe(1000);
    expect(percentile(xs, 98)).toBe(97);
  });

  it('takes rank p% of n exactly when that is a whole number, despite floating point', () => {
    // 99.9 / 100 * 100000 is 99900.00000000001 in floating point: the rank is still 99,900.
    const ranks = Float64Array.from({ length: 100_000 }, (_, i) => i + 1);
    expect(percentileSorted(ranks, 99.9)).toBe(99_900);
    expect(percentileSorted(ranks, 99.99)).toBe(99_990);
    expect(percentileSorted(ranks, 99.9001)).toBe(99_901);
  });

  it('is monotone in p', () => {
    const rng = mulberry32(3);
    const sorted = sortedCopy(Array.from({ length: 5000 }, () => rng() * rng() * 1000));
    let last = -Infinity;
    for (let p = 0; p <= 100; p += 0.25) {
      const v = percentileSorted(sorted, p);
      expect(v).toBeGreaterThanOrEqual(last);
      last = v;
    }
  });
});

describe('shareAbove and windowCounts', () => {
  it('counts the values strictly above x', () => {
    const sorted = sortedCopy([1, 2, 2, 3, 4]);
    expect(shareAbove(sorted, 2)).toBeCloseTo(0.4);
    expect(shareAbove(sorted, 0)).toBe(1);
    expect(shareAbove(sorted, 4)).toBe(0);
  });

  it('puts each value in its half-open window and drops the rest', () => {
    expect(windowCounts([0, 49.9, 50, 149, 150, -1], 50, 0, 3)).toEqual([2, 1, 1]);
  });
});

describe('sortInPlace', () => {
  it('sorts like the built-in sort for latencies, mixed magnitudes, ties and negatives', () => {
    const rng = mulberry32(8);
    const cases = [
      Float64Array.from({ length: 50_000 }, () => (rng() < 0.02 ? 1000 : 20 + rng() * 40)),
      Float64Array.from({ length: 20_000 }, () => Math.exp(rng() * 30 - 10)),
      Float64Array.from({ length: 10_000 }, () => Math.floor(rng() * 5)),
      Float64Array.from({ length: 10_000 }, () => rng() - 0.5),
      Float64Array.from({ length: 100 }, () => rng()),
    ];
    for (const c of cases) {
      const expected = Float64Array.from(c).sort();
      expect(Array.from(sortInPlace(c))).toEqual(Array.from(expected));
    }
  });
});
