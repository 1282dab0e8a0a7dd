// Alternative: state lives in closures built by factory functions; the classes only hand those
// objects out (a constructor may return an object). Tokens are counted in micro-tokens, decimals
// are read from the number's own decimal text (as gRPC's C++ parser reads the JSON text), and
// callWithRetries is recursive.

export interface RetryBudget {
  deposit(): void;
  trySpend(): boolean;
}

export interface RatioRetryBudgetOptions {
  ratio?: number;
  maxTokens?: number;
  initialTokens?: number;
}

export interface RetryThrottleOptions {
  maxTokens: number;
  tokenRatio: number;
}

const MICRO = 1_000_000; // 1 token

/** The decimal digits of a finite, non-negative number as JavaScript prints it. */
function splitDecimal(x: number): { whole: string; fraction: string } | undefined {
  if (!Number.isFinite(x) || x < 0) return undefined;
  const text = x.toString();
  // 1e-7 and 1e+21 print in exponent form; fixed notation with 20 digits is exact enough for both.
  const plain = text.includes('e') ? x.toFixed(20).replace(/0+$/, '') : text;
  const [whole = '0', fraction = ''] = plain.split('.');
  return { whole, fraction };
}

/** Micro-tokens for a number with at most three decimals; undefined otherwise. */
function strictMicro(x: number): number | undefined {
  const parts = splitDecimal(x);
  if (!parts || parts.fraction.length > 3) return undefined;
  return Number(parts.whole) * MICRO + Number(parts.fraction.padEnd(3, '0')) * 1000;
}

/** Micro-tokens for the first three decimals of x, the rest ignored; undefined if not finite or < 0. */
function truncatedMicro(x: number): number | undefined {
  const parts = splitDecimal(x);
  if (!parts) return undefined;
  return Number(parts.whole) * MICRO + Number(parts.fraction.slice(0, 3).padEnd(3, '0')) * 1000;
}

function ratioBudget(opts: RatioRetryBudgetOptions) {
  const maxTokens = opts.maxTokens ?? 10;
  if (!Number.isSafeInteger(maxTokens) || maxTokens <= 0) throw new RangeError('maxTokens: a whole number >= 1');
  const earn = strictMicro(opts.ratio ?? 0.1);
  if (earn === undefined || earn === 0 || earn > MICRO) throw new RangeError('ratio: 0.001 to 1, three decimals at most');
  const cap = maxTokens * MICRO;
  const held = strictMicro(opts.initialTokens ?? maxTokens);
  if (held === undefined || held > cap) throw new RangeError('initialTokens: 0 to maxTokens, three decimals at most');
  let micro = held;
  return {
    get tokens() {
      return micro / MICRO;
    },
    deposit() {
      micro = micro + earn > cap ? cap : micro + earn;
    },
    trySpend() {
      const enough = micro >= MICRO;
      if (enough) micro -= MICRO;
      return enough;
    },
  };
}

export class RatioRetryBudget implements RetryBudget {
  declare readonly tokens: number;
  constructor(opts: RatioRetryBudgetOptions = {}) {
    return ratioBudget(opts) as RatioRetryBudget;
  }
  deposit(): void {}
  trySpend(): boolean {
    return false;
  }
}

export function callWithRetries<T>(
  budget: RetryBudget,
  attempt: () => Promise<T>,
  opts: { maxAttempts?: number } = {},
): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 3;
  if (!(Number.isInteger(maxAttempts) && maxAttempts >= 1)) return Promise.reject(new RangeError('maxAttempts: a whole number >= 1'));
  budget.deposit();
  // A chain of promises, not async: an attempt() that throws before returning one must be caught
  // here, or it would escape the call (the first) or end it without the retries left (a later one).
  const attemptOnce = (): Promise<T> => {
    try {
      return attempt();
    } catch (err) {
      return Promise.reject(err);
    }
  };
  const from = (n: number): Promise<T> =>
    attemptOnce().catch((err: unknown) => {
      const retry = n < maxAttempts && budget.trySpend();
      return retry ? from(n + 1) : Promise.reject(err);
    });
  return from(1);
}

function throttle({ maxTokens, tokenRatio }: RetryThrottleOptions) {
  if (!(Number.isInteger(maxTokens) && maxTokens >= 1 && maxTokens <= 1000)) throw new RangeError('maxTokens: 1 to 1000');
  const ratio = truncatedMicro(tokenRatio);
  if (ratio === undefined || ratio === 0) throw new RangeError('tokenRatio: > 0, at least 0.001 once cut to three decimals');
  const max = maxTokens * MICRO;
  let micro = max;
  return {
    get tokens() {
      return micro / MICRO;
    },
    get retryAllowed() {
      return 2 * micro > max;
    },
    onSuccess() {
      micro = Math.min(max, micro + ratio);
    },
    onFailure() {
      micro = Math.max(0, micro - MICRO);
    },
  };
}

export class RetryThrottle {
  declare readonly tokens: number;
  declare readonly retryAllowed: boolean;
  constructor(opts: RetryThrottleOptions) {
    return throttle(opts) as RetryThrottle;
  }
  onSuccess(): void {}
  onFailure(): void {}
}
