// Retry budgets: make every rule T1–T12 of the brief hold.
// Retry budget: hãy làm cho mọi rule T1–T12 trong đề bài đều đạt.

/** What a retrying caller needs from a budget (the same shape as in the retry-helper exercise). */
export interface RetryBudget {
  deposit(): void; // once per request
  trySpend(): boolean; // once per retry that will really be sent; false = no retry
}

export interface RatioRetryBudgetOptions {
  ratio?: number; // tokens earned per request: 0.001 to 1, at most 3 decimals; default 0.1
  maxTokens?: number; // the cap: a whole number >= 1; default 10
  initialTokens?: number; // 0 to maxTokens, at most 3 decimals; default maxTokens
}

/** Per-client ratio budget: each request earns `ratio` of a retry, each retry spends one token. */
export class RatioRetryBudget implements RetryBudget {
  constructor(opts: RatioRetryBudgetOptions = {}) {
    // TODO T1, T12
  }

  /** Tokens held now, exact to the thousandth. */
  get tokens(): number {
    // TODO T1–T5
    return 0;
  }

  /** Once per request: adds `ratio`, never above `maxTokens`. */
  deposit(): void {
    // TODO T3, T4, T5
  }

  /** Once per retry: takes one whole token and returns true, or returns false and takes nothing. */
  trySpend(): boolean {
    // TODO T2
    return true;
  }
}

/** Calls `attempt` until it resolves, at most `maxAttempts` times (default 3, the first included). */
export async function callWithRetries<T>(budget: RetryBudget, attempt: () => Promise<T>, opts: { maxAttempts?: number } = {}): Promise<T> {
  // TODO T6, T7, T12: this sends one attempt and never asks the budget.
  return attempt();
}

export interface RetryThrottleOptions {
  maxTokens: number; // a whole number from 1 to 1000
  tokenRatio: number; // > 0; digits after the third decimal are ignored
}

/** gRPC retryThrottling: failures drain the tokens, successes refill them, retries need > half. */
export class RetryThrottle {
  constructor(opts: RetryThrottleOptions) {
    // TODO T8, T11, T12
  }

  /** Tokens held now, exact to the thousandth. */
  get tokens(): number {
    // TODO T8, T9
    return 0;
  }

  /** True only while tokens > maxTokens / 2. */
  get retryAllowed(): boolean {
    // TODO T10
    return true;
  }

  onSuccess(): void {
    // TODO T9, T11
  }

  onFailure(): void {
    // TODO T9
  }
}
