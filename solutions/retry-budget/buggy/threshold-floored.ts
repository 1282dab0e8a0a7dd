// expect-fail: T10
// Bug: the threshold is computed in whole tokens, Math.floor(maxTokens / 2), so with maxTokens 3 it is 1 instead of 1.5.
// Reference solution for the retry-budget exercise: two different retry budgets.
//
// RatioRetryBudget is the SRE book's per-client ratio (retries at most `ratio` of requests),
// counted as a token bucket. RetryThrottle is gRPC's retryThrottling, which counts failures
// against successes instead. Both keep their tokens as whole milli-tokens: every quantity they
// accept has at most three decimals, so integer arithmetic is exact where a float sum drifts
// (ten additions of 0.1 give 0.9999999999999999).

/** What a retrying caller needs from a budget (the same shape as in the retry-helper exercise). */
export interface RetryBudget {
  deposit(): void; // once per request
  trySpend(): boolean; // once per retry that will really be sent; false = no retry
}

/** 1 token = 1000 milli-tokens. */
const MILLI = 1000;

/** `value` in milli-tokens when it has at most three decimals, else undefined. */
function exactMilli(value: number): number | undefined {
  if (!Number.isFinite(value)) return undefined;
  // Rounding to millionths first removes the float noise of the product (0.058 * 1000 is exact,
  // 1.005 * 1000 is 1004.9999999999999); the milli count is then a whole number or it is not.
  const milli = Math.round(value * 1_000_000) / 1000;
  return Number.isInteger(milli) ? milli : undefined;
}

export interface RatioRetryBudgetOptions {
  ratio?: number; // tokens earned per request: 0.001 to 1, at most 3 decimals; default 0.1
  maxTokens?: number; // the cap: a whole number >= 1; default 10
  initialTokens?: number; // 0 to maxTokens, at most 3 decimals; default maxTokens
}

/** Per-client ratio budget: each request earns `ratio` of a retry, each retry spends one token. */
export class RatioRetryBudget implements RetryBudget {
  private readonly earnMilli: number;
  private readonly capMilli: number;
  private milli: number;

  constructor(opts: RatioRetryBudgetOptions = {}) {
    const ratio = opts.ratio ?? 0.1;
    const maxTokens = opts.maxTokens ?? 10;
    const earn = exactMilli(ratio);
    // Above 1 a retry storm could pay for itself; below 0.001 nothing would ever be earned.
    if (earn === undefined || earn < 1 || earn > MILLI) {
      throw new RangeError(`ratio must be between 0.001 and 1 with at most 3 decimals, got ${ratio}`);
    }
    if (!Number.isInteger(maxTokens) || maxTokens < 1) {
      throw new RangeError(`maxTokens must be a whole number >= 1, got ${maxTokens}`);
    }
    const initialTokens = opts.initialTokens ?? maxTokens;
    const initial = exactMilli(initialTokens);
    if (initial === undefined || initial < 0 || initial > maxTokens * MILLI) {
      throw new RangeError(`initialTokens must be between 0 and maxTokens with at most 3 decimals, got ${initialTokens}`);
    }
    this.earnMilli = earn;
    this.capMilli = maxTokens * MILLI;
    // Starting full lets a blip right after start-up be retried in full.
    this.milli = initial;
  }

  get tokens(): number {
    // A whole number of thousandths divided by 1000 is the double nearest that decimal: 1099 → 1.099.
    return this.milli / MILLI;
  }

  /** Once per request, never per attempt: if retries deposited too, a storm would fund itself. */
  deposit(): void {
    // The cap stops a long calm period from saving up an unlimited burst of retries.
    this.milli = Math.min(this.capMilli, this.milli + this.earnMilli);
  }

  /** A retry costs one whole token; 0.999 of a token is not a retry. */
  trySpend(): boolean {
    if (this.milli < MILLI) return false;
    this.milli -= MILLI;
    return true;
  }
}

/**
 * Calls `attempt` until it resolves, at most `maxAttempts` times (default 3, the first included).
 * Every rejection counts as retryable here: the exercise is about the budget, not the error.
 */
export async function callWithRetries<T>(
  budget: RetryBudget,
  attempt: () => Promise<T>,
  opts: { maxAttempts?: number } = {},
): Promise<T> {
  const maxAttempts = opts.maxAttempts ?? 3;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) {
    throw new RangeError(`maxAttempts must be a whole number >= 1, got ${maxAttempts}`);
  }
  // One deposit per request, before anything else: the request earns its share whatever happens.
  budget.deposit();
  for (let sent = 1; ; sent++) {
    try {
      return await attempt();
    } catch (err) {
      // Ask the budget last: a token spent on a retry that maxAttempts forbids would be lost for
      // another request. A refusal hands the caller the real failure, not a budget error.
      if (sent >= maxAttempts || !budget.trySpend()) throw err;
    }
  }
}

export interface RetryThrottleOptions {
  maxTokens: number; // a whole number from 1 to 1000 (grpc-go's upper limit)
  tokenRatio: number; // > 0; digits after the third decimal are ignored, as gRPC's parser does
}

/** gRPC retryThrottling: failures drain the tokens, successes refill them, retries need > half. */
export class RetryThrottle {
  private readonly maxMilli: number;
  private readonly ratioMilli: number;
  private milli: number;

  constructor(opts: RetryThrottleOptions) {
    const { maxTokens, tokenRatio } = opts;
    if (!Number.isInteger(maxTokens) || maxTokens < 1 || maxTokens > 1000) {
      throw new RangeError(`maxTokens must be a whole number from 1 to 1000, got ${maxTokens}`);
    }
    if (typeof tokenRatio !== 'number' || !Number.isFinite(tokenRatio) || tokenRatio <= 0) {
      throw new RangeError(`tokenRatio must be a finite number > 0, got ${tokenRatio}`);
    }
    // gRPC keeps three decimals and drops the rest (0.1239 → 0.123), so truncate, not round.
    // The rounding to millionths only removes float noise (1.005 * 1000 = 1004.9999999999999).
    const ratioMilli = Math.floor(Math.round(tokenRatio * 1_000_000) / 1000);
    if (ratioMilli < 1) {
      throw new RangeError(`tokenRatio keeps no digit in its first three decimals: ${tokenRatio}`);
    }
    this.maxMilli = maxTokens * MILLI;
    this.ratioMilli = ratioMilli;
    // gRPC starts full: retries are allowed until failures say otherwise.
    this.milli = this.maxMilli;
  }

  get tokens(): number {
    return this.milli / MILLI;
  }

  /** Strictly above half: at exactly maxTokens / 2, no retry and no hedge. */
  get retryAllowed(): boolean {
    // maxMilli is a multiple of 1000, so half of it is a whole number: no rounding here.
    return this.milli > Math.floor(this.maxMilli / MILLI / 2) * MILLI;
  }

  onSuccess(): void {
    this.milli = Math.min(this.maxMilli, this.milli + this.ratioMilli);
  }

  onFailure(): void {
    this.milli = Math.max(0, this.milli - MILLI);
  }
}
