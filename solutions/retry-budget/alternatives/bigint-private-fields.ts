// Alternative: classes with #private fields and BigInt milli-tokens (no float can creep in once
// a value is stored), decimals checked with a small tolerance on the scaled value, and
// callWithRetries as a plain while loop.

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

const ONE = 1000n;

/** x * 1000 as a bigint when x has at most three decimals (float noise tolerated), else null. */
function milliOf(x: number): bigint | null {
  if (typeof x !== 'number' || !Number.isFinite(x)) return null;
  const scaled = x * 1000;
  const whole = Math.round(scaled);
  return Math.abs(scaled - whole) <= 1e-6 * Math.max(1, Math.abs(scaled)) ? BigInt(whole) : null;
}

export class RatioRetryBudget implements RetryBudget {
  #earn: bigint;
  #cap: bigint;
  #milli: bigint;

  constructor({ ratio = 0.1, maxTokens = 10, initialTokens }: RatioRetryBudgetOptions = {}) {
    const earn = milliOf(ratio);
    if (earn === null || earn < 1n || earn > ONE) throw new RangeError(`bad ratio ${ratio}`);
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new RangeError(`bad maxTokens ${maxTokens}`);
    const cap = BigInt(maxTokens) * ONE;
    const start = initialTokens === undefined ? cap : milliOf(initialTokens);
    if (start === null || start < 0n || start > cap) throw new RangeError(`bad initialTokens ${initialTokens}`);
    this.#earn = earn;
    this.#cap = cap;
    this.#milli = start;
  }

  get tokens(): number {
    return Number(this.#milli) / 1000;
  }

  deposit(): void {
    const next = this.#milli + this.#earn;
    this.#milli = next < this.#cap ? next : this.#cap;
  }

  trySpend(): boolean {
    if (this.#milli >= ONE) {
      this.#milli -= ONE;
      return true;
    }
    return false;
  }
}

export async function callWithRetries<T>(
  budget: RetryBudget,
  attempt: () => Promise<T>,
  { maxAttempts = 3 }: { maxAttempts?: number } = {},
): Promise<T> {
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError(`bad maxAttempts ${maxAttempts}`);
  budget.deposit();
  let made = 0;
  let lastError: unknown;
  while (made === 0 || (made < maxAttempts && budget.trySpend())) {
    made++;
    try {
      return await attempt();
    } catch (err) {
      lastError = err;
    }
  }
  throw lastError;
}

export class RetryThrottle {
  #max: bigint;
  #ratio: bigint;
  #milli: bigint;

  constructor(opts: RetryThrottleOptions) {
    const { maxTokens, tokenRatio } = opts;
    if (!Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 1000) throw new RangeError(`bad maxTokens ${maxTokens}`);
    if (typeof tokenRatio !== 'number' || !(tokenRatio > 0) || tokenRatio === Infinity) throw new RangeError(`bad tokenRatio ${tokenRatio}`);
    // Drop digits past the third decimal; the small nudge undoes float noise (1.005 * 1000 = 1004.999…).
    const scaled = tokenRatio * 1000;
    const ratio = BigInt(Math.floor(scaled + 1e-9 * Math.max(1, scaled)));
    if (ratio < 1n) throw new RangeError(`tokenRatio ${tokenRatio} keeps no digit in three decimals`);
    this.#max = BigInt(maxTokens) * ONE;
    this.#ratio = ratio;
    this.#milli = this.#max;
  }

  get tokens(): number {
    return Number(this.#milli) / 1000;
  }

  get retryAllowed(): boolean {
    return this.#milli * 2n > this.#max;
  }

  onSuccess(): void {
    const next = this.#milli + this.#ratio;
    this.#milli = next > this.#max ? this.#max : next;
  }

  onFailure(): void {
    this.#milli = this.#milli > ONE ? this.#milli - ONE : 0n;
  }
}
