/**
 * Nearest-rank percentile: the smallest value v such that at least p% of the values are <= v,
 * i.e. sorted[ceil(p/100 * n) - 1]. Always one of the data points, so p99 of "2% are 1000 ms" is 1000 ms.
 * `sorted` must be ascending.
 */
export function percentileSorted(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  if (p <= 0) return sorted[0]!;
  // p / 100 * n is often a whole number off by one ulp (99.9 / 100 * 100000 = 99900.00000000001):
  // round such values before taking the ceiling, or the rank lands one sample too high.
  const exact = (p / 100) * n;
  const nearest = Math.round(exact);
  const rank = Math.abs(exact - nearest) < 1e-9 * Math.max(1, n) ? nearest : Math.ceil(exact);
  return sorted[Math.min(n, Math.max(1, rank)) - 1]!;
}

export function sortedCopy(values: ArrayLike<number>): Float64Array {
  return sortInPlace(Float64Array.from(values as ArrayLike<number>));
}

const RADIX_MIN = 4096;

/**
 * Sort ascending, in place. For non-negative numbers (latencies), an LSD radix sort on the IEEE 754
 * bits, whose order matches numeric order for non-negative doubles: 4 passes of 16 bits,
 * several times faster than the built-in sort at 100,000 values. Anything else: the built-in sort.
 */
export function sortInPlace(values: Float64Array): Float64Array {
  const n = values.length;
  if (n < RADIX_MIN) return values.sort();
  for (let i = 0; i < n; i++) if (!(values[i]! >= 0)) return values.sort(); // negative or NaN
  let src: Float64Array = values;
  let dst: Float64Array = new Float64Array(n);
  let srcWords: Uint32Array = new Uint32Array(src.buffer, src.byteOffset, n * 2);
  let dstWords: Uint32Array = new Uint32Array(dst.buffer, dst.byteOffset, n * 2);
  const lowFirst = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f; // little-endian words
  const counts = new Uint32Array(65536);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass < 2 === lowFirst ? 0 : 1;
    const shift = (pass % 2) * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(srcWords[2 * i + word]! >>> shift) & 0xffff]!++;
    if (counts[(srcWords[word]! >>> shift) & 0xffff] === n) continue; // every key has the same digit
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = counts[d]!;
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const d = (srcWords[2 * i + word]! >>> shift) & 0xffff;
      const at = counts[d]!++;
      dstWords[2 * at] = srcWords[2 * i]!;
      dstWords[2 * at + 1] = srcWords[2 * i + 1]!;
    }
    [src, dst] = [dst, src];
    [srcWords, dstWords] = [dstWords, srcWords];
  }
  if (src !== values) values.set(src);
  return values;
}

export function percentile(values: ArrayLike<number>, p: number): number {
  return percentileSorted(sortedCopy(values), p);
}

/** Share (0..1) of sorted values strictly above x. */
export function shareAbove(sorted: ArrayLike<number>, x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return sorted.length === 0 ? 0 : (sorted.length - lo) / sorted.length;
}

/** Count values per fixed window [start + i*width, start + (i+1)*width). Values outside are ignored. */
export function windowCounts(values: Iterable<number>, width: number, start: number, count: number): number[] {
  const bins = new Array<number>(count).fill(0);
  for (const v of values) {
    const i = Math.floor((v - start) / width);
    if (i >= 0 && i < count) bins[i]!++;
  }
  return bins;
}

export function max(values: ArrayLike<number>): number {
  let m = -Infinity;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  return m;
}

export function sum(values: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i]!;
  return s;
}

/** The percentiles a latency chart needs: dense in the body, denser in the tail. */
export const CHART_PERCENTILES: readonly number[] = [
  ...Array.from({ length: 99 }, (_, i) => i + 1),
  99.1,
  99.2,
  99.3,
  99.4,
  99.5,
  99.6,
  99.7,
  99.8,
  99.9,
  99.95,
  99.99,
];
