// Alternative: argument checks as a table of predicates, the ceiling through a logarithm
// comparison (so 2 ** n is only computed below the cap), and the schedule by recursion.

export type Random = () => number;
export type Strategy = 'none' | 'full' | 'equal' | 'decorrelated';

type Check = [name: string, ok: (v: number) => boolean];

const positive: Check = ['a finite number > 0', (v) => Number.isFinite(v) && v > 0];
const wholeFrom = (min: number): Check => [`a whole number >= ${min}`, (v) => Number.isInteger(v) && v >= min];
const finiteFrom = (min: number): Check => [`a finite number >= ${min}`, (v) => Number.isFinite(v) && v >= min];

function check(args: Record<string, [number, Check]>): void {
  for (const [arg, [value, [name, ok]]] of Object.entries(args)) {
    if (!ok(value)) throw new RangeError(`${arg} must be ${name}, got ${value}`);
  }
}

const options = (baseMs: number, capMs: number): Record<string, [number, Check]> => ({
  baseMs: [baseMs, positive],
  // Once baseMs passed, Number.isFinite(baseMs) holds, so finiteFrom(baseMs) is meaningful.
  capMs: [capMs, finiteFrom(Number.isFinite(baseMs) ? baseMs : Infinity)],
});

export function exponentialDelay(failures: number, baseMs: number, capMs: number): number {
  check({ failures: [failures, wholeFrom(1)], ...options(baseMs, capMs) });
  const doublings = failures - 1;
  if (doublings >= Math.log2(capMs / baseMs)) return capMs;
  return Math.min(capMs, baseMs * Math.pow(2, doublings));
}

export function fullJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const t = exponentialDelay(failures, baseMs, capMs);
  const r = random();
  return r * t;
}

export function equalJitterDelay(failures: number, baseMs: number, capMs: number, random: Random): number {
  const t = exponentialDelay(failures, baseMs, capMs);
  const r = random();
  return t / 2 + (r * t) / 2;
}

export function decorrelatedJitterDelay(previousMs: number, baseMs: number, capMs: number, random: Random): number {
  check({ ...options(baseMs, capMs), previousMs: [previousMs, finiteFrom(baseMs)] });
  const r = random();
  const drawn = baseMs + r * (3 * previousMs - baseMs);
  return drawn > capMs ? capMs : drawn;
}

const NEXT: Record<Strategy, (failures: number, previous: number, baseMs: number, capMs: number, random: Random) => number> = {
  none: (n, _p, b, c) => exponentialDelay(n, b, c),
  full: (n, _p, b, c, r) => fullJitterDelay(n, b, c, r),
  equal: (n, _p, b, c, r) => equalJitterDelay(n, b, c, r),
  decorrelated: (_n, p, b, c, r) => decorrelatedJitterDelay(p, b, c, r),
};

export function backoffDelays(strategy: Strategy, retries: number, baseMs: number, capMs: number, random: Random): number[] {
  if (!Object.hasOwn(NEXT, strategy)) throw new RangeError(`unknown strategy: ${String(strategy)}`);
  check({ retries: [retries, wholeFrom(0)], ...options(baseMs, capMs) });
  const next = NEXT[strategy];
  const build = (failures: number, previous: number): number[] => {
    if (failures > retries) return [];
    const wait = next(failures, previous, baseMs, capMs, random);
    return [wait, ...build(failures + 1, wait)];
  };
  return build(1, baseMs);
}
