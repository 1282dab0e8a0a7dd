import { describe, test } from 'vitest';
import { AdaptiveThrottle, type AdaptiveThrottleOptions } from '../src/throttle.ts';
import { expectAccepted, expectRangeError } from './helpers.ts';

/** Options as they would be written in JS: `{ k: Infinity }`, `{ windowMs: -0 }`, `{}`. */
const show = (o: object) => {
  const value = (v: unknown) => (typeof v === 'number' ? (Object.is(v, -0) ? '-0' : String(v)) : JSON.stringify(v));
  const entries = Object.entries(o).map(([key, v]) => `${key}: ${value(v)}`);
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
};

describe('options', () => {
  test('A9 invalid options throw a RangeError', () => {
    const invalid: AdaptiveThrottleOptions[] = [
      { k: 0 },
      { k: 0.5 },
      { k: 0.999 },
      { k: -2 },
      { k: Number.NaN },
      { k: Number.POSITIVE_INFINITY },
      { windowMs: 0 },
      { windowMs: -1000 },
      { windowMs: 1.5 },
      { windowMs: Number.NaN },
      { windowMs: Number.POSITIVE_INFINITY },
    ];
    for (const opts of invalid) expectRangeError(() => new AdaptiveThrottle(opts), `new AdaptiveThrottle(${show(opts)})`);
  });

  test('A9 valid options are accepted, boundaries included', () => {
    const valid: AdaptiveThrottleOptions[] = [{}, { k: 1 }, { k: 1.1 }, { k: 2 }, { k: 10 }, { windowMs: 1 }, { windowMs: 120_000 }, { windowMs: 3_600_000 }];
    for (const opts of valid) expectAccepted(() => new AdaptiveThrottle(opts), `new AdaptiveThrottle(${show(opts)})`);
    expectAccepted(() => new AdaptiveThrottle(), 'new AdaptiveThrottle()');
  });
});
