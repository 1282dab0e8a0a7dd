import { describe, expect, it } from 'vitest';
import { amplification, amplify, type AmplificationParams } from './amplification.ts';
import { defaults } from './params.ts';

const base = defaults(amplification.params) as AmplificationParams;

describe('amplification', () => {
  it('with the bottom down, k attempts per layer give k^layers calls', () => {
    expect(amplification.run({ ...base, layers: 4, attemptsPerLayer: 3 }, 1).rows.map((r) => r.expectedCalls)).toEqual([3, 9, 27, 81]);
    expect(amplify(3, 4, 1)[2]!.calls).toBe(64); // SRE book: 3 layers x 4 attempts
    expect(amplify(5, 3, 1)[4]!.calls).toBe(243); // Builders' Library: 5 layers x 3 attempts
  });

  it('with a healthy bottom, nobody retries', () => {
    for (const r of amplification.run({ ...base, failurePct: 0 }, 1).rows) {
      expect(r.expectedCalls).toBe(1);
      expect(r.userFailurePct).toBe(0);
    }
  });

  it('expected calls follow 1 + q + ... + q^(k-1) per layer', () => {
    expect(amplify(1, 3, 0.5)[0]!.calls).toBeCloseTo(1.75);
    expect(amplify(2, 3, 0.5)[1]!.calls).toBeCloseTo(1.75 * (1 + 0.125 + 0.125 ** 2));
  });

  it('grows with every layer and never beats the worst case', () => {
    const rows = amplification.run({ ...base, failurePct: 60 }, 1).rows;
    for (let i = 0; i < rows.length; i++) {
      expect(rows[i]!.expectedCalls).toBeLessThanOrEqual(rows[i]!.worstCaseCalls);
      if (i > 0) expect(rows[i]!.expectedCalls).toBeGreaterThanOrEqual(rows[i - 1]!.expectedCalls);
    }
  });
});
