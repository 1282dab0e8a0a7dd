/** A source of uniform numbers in [0, 1). */
export type Rng = () => number;

/** mulberry32: tiny, fast, 32-bit state; good enough for simulations, not for cryptography. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Derive an independent stream for a sub-experiment, so adding one does not shift the others. */
export function substream(seed: number, label: string): Rng {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return mulberry32(h);
}

export function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}

/** Standard normal by Box-Muller (one value per call; simplicity over speed). */
export function normal(rng: Rng): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function lognormal(rng: Rng, median: number, sigma: number): number {
  return median * Math.exp(sigma * normal(rng));
}

/** Standard normals two at a time (both Box-Muller outputs), for bulk sampling. */
export function normalSource(rng: Rng): () => number {
  let spare = Number.NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const s = spare;
      spare = Number.NaN;
      return s;
    }
    const r = Math.sqrt(-2 * Math.log(1 - rng()));
    const a = 2 * Math.PI * rng();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

/** Pareto with scale `xm` and shape `alpha`: heavy tail, P(X > x) = (xm / x)^alpha. */
export function pareto(rng: Rng, xm: number, alpha: number): number {
  return xm / (1 - rng()) ** (1 / alpha);
}

/** Round to n decimals, to keep tables and JSON readable. */
export function round(x: number, decimals = 1): number {
  const f = 10 ** decimals;
  return Math.round(x * f) / f;
}
