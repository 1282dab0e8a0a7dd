/**
 * Chart data helpers. uPlot wants every series on one shared x array; a lab may also get series far
 * longer than a chart has pixels (a 600 s retry storm is 7,000 ticks). Thinning keeps the minimum and
 * the maximum of every series in every bucket, so peaks (the point of most of these charts) survive.
 */
import type { Series } from '../sims/index.ts';

export interface Aligned {
  x: number[];
  ys: (number | null)[][];
}

const sameArray = (a: readonly number[], b: readonly number[]): boolean => a === b || (a.length === b.length && a.every((v, i) => v === b[i]));

/** Put series on one sorted x array; a series with no point at some x gets null there (a gap). */
export function alignSeries(series: readonly Series[]): Aligned {
  if (series.length === 0) return { x: [], ys: [] };
  const first = series[0]!.x;
  const sorted = first.every((v, i) => i === 0 || v > first[i - 1]!);
  if (sorted && series.every((s) => sameArray(s.x, first))) return { x: [...first], ys: series.map((s) => [...s.y]) };
  const x = [...new Set(series.flatMap((s) => s.x))].sort((a, b) => a - b);
  const at = new Map(x.map((v, i) => [v, i]));
  const ys = series.map((s) => {
    const y: (number | null)[] = new Array(x.length).fill(null);
    s.x.forEach((v, i) => {
      y[at.get(v)!] = s.y[i]!;
    });
    return y;
  });
  return { x, ys };
}

/**
 * At most `maxPoints` points, keeping the first and last point and, per bucket, the index of every
 * series' minimum and maximum.
 */
export function thinAligned(data: Aligned, maxPoints: number): Aligned {
  const n = data.x.length;
  if (n <= maxPoints) return data;
  const perBucket = 2 * Math.max(1, data.ys.length);
  const buckets = Math.max(1, Math.floor((maxPoints - 2) / perBucket));
  const keep = new Set<number>([0, n - 1]);
  for (let b = 0; b < buckets; b++) {
    const from = Math.floor((b * n) / buckets);
    const to = Math.floor(((b + 1) * n) / buckets);
    for (const y of data.ys) {
      let lo = -1;
      let hi = -1;
      for (let i = from; i < to; i++) {
        const v = y[i];
        if (v === null || v === undefined) continue;
        if (lo < 0 || v < y[lo]!) lo = i;
        if (hi < 0 || v > y[hi]!) hi = i;
      }
      if (lo >= 0) keep.add(lo);
      if (hi >= 0) keep.add(hi);
    }
  }
  const idx = [...keep].sort((a, b) => a - b);
  return { x: idx.map((i) => data.x[i]!), ys: data.ys.map((y) => idx.map((i) => y[i] ?? null)) };
}

/**
 * Row indices for a data table a person can read: about `maxRows` evenly spaced rows, plus the row
 * of every series' maximum so the table shows the peaks the figures talk about.
 */
export function tableIndices(data: Aligned, maxRows: number): number[] {
  const n = data.x.length;
  if (n <= maxRows) return data.x.map((_, i) => i);
  const keep = new Set<number>();
  for (let r = 0; r < maxRows; r++) keep.add(Math.round((r * (n - 1)) / (maxRows - 1)));
  for (const y of data.ys) {
    let hi = -1;
    y.forEach((v, i) => {
      if (v !== null && (hi < 0 || v > y[hi]!)) hi = i;
    });
    if (hi >= 0) keep.add(hi);
  }
  return [...keep].sort((a, b) => a - b);
}

/** The smallest and largest value of every series (nulls skipped); [0, 1] when there is none. */
export function extent(ys: readonly (readonly (number | null)[])[]): [number, number] {
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const y of ys)
    for (const v of y) {
      if (v === null || !Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Each series that goes above `top` (its index, the first point above and its peak), for the chart to mark. */
export function aboveTop(ys: readonly (readonly (number | null)[])[], top: number): { series: number; first: number; peak: number }[] {
  const out: { series: number; first: number; peak: number }[] = [];
  ys.forEach((y, series) => {
    let first = -1;
    let peak = Number.NEGATIVE_INFINITY;
    y.forEach((v, i) => {
      if (v === null || !(v > top + Math.abs(top) * 1e-9)) return;
      if (first < 0) first = i;
      if (v > peak) peak = v;
    });
    if (first >= 0) out.push({ series, first, peak });
  });
  return out;
}
