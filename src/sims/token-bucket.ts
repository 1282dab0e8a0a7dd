/**
 * The retry budget of the simulations that have one: a token bucket that earns `ratio` of a token
 * per request and spends a whole token per retry, capped at `maxTokens` and starting full. It is the
 * retry-budget exercise's RatioRetryBudget (the SRE book's per-client ratio), counted the same way in
 * thousandths of a token, so the learner's own budget, run in the lab's place, gives exactly the
 * lab's figures when it is right.
 */
export interface RetryBudget {
  deposit(): void;
  trySpend(): boolean;
}

const MILLI = 1000;

export class TokenBucket implements RetryBudget {
  readonly #earn: number;
  readonly #cap: number;
  #milli: number;

  constructor(ratio: number, maxTokens: number) {
    this.#earn = Math.round(ratio * MILLI);
    this.#cap = Math.round(maxTokens * MILLI);
    this.#milli = this.#cap;
  }

  get tokens(): number {
    return this.#milli / MILLI;
  }

  deposit(): void {
    this.#milli = Math.min(this.#cap, this.#milli + this.#earn);
  }

  trySpend(): boolean {
    if (this.#milli < MILLI) return false;
    this.#milli -= MILLI;
    return true;
  }
}
