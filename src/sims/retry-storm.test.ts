import { describe, expect, it } from 'vitest';
import { defaults } from './params.ts';
import { retryStorm, simulateStorm, stormPolicies, type RetryStormParams, type RetryStormRow } from './retry-storm.ts';

const base = defaults(retryStorm.params) as RetryStormParams;
const byPolicy = (rows: RetryStormRow[]): Record<string, RetryStormRow> => Object.fromEntries(rows.map((r) => [r.policy, r]));

describe('retry-storm at the defaults', () => {
  const rows = byPolicy(retryStorm.run(base, 1).rows);

  it('recovers at once without retries and with a retry budget, at about normal load', () => {
    for (const id of ['none', 'full-jitter-budget-10']) {
      expect(rows[id]!.recoveredAfterMs, id).toBe(0);
      // Below capacity: nothing is rejected, so nothing feeds more retries.
      expect(rows[id]!.peakLoadAfterRecovery, id).toBeLessThan(base.capacityPerTick / base.newPerTick);
    }
    expect(rows.none!.peakLoadAfterRecovery).toBe(1);
  });

  it('never recovers with fixed retries, two layers, or backoff with or without jitter', () => {
    for (const id of ['fixed-1s-x5', 'fixed-1s-x5-2-layers', 'exp-no-jitter-x3', 'full-jitter-x3']) {
      expect(rows[id]!.recoveredAfterMs, id).toBeNull();
    }
  });

  it('orders the peaks: two layers, then fixed x5, then the x3 policies, then the budget', () => {
    const x3 = Math.max(rows['exp-no-jitter-x3']!.peakLoadAfterRecovery, rows['full-jitter-x3']!.peakLoadAfterRecovery);
    expect(rows['fixed-1s-x5-2-layers']!.peakLoadAfterRecovery).toBeGreaterThan(rows['fixed-1s-x5']!.peakLoadAfterRecovery);
    expect(rows['fixed-1s-x5']!.peakLoadAfterRecovery).toBeGreaterThan(x3);
    expect(Math.min(rows['exp-no-jitter-x3']!.peakLoadAfterRecovery, rows['full-jitter-x3']!.peakLoadAfterRecovery)).toBeGreaterThan(
      rows['full-jitter-budget-10']!.peakLoadAfterRecovery,
    );
  });

  it('reaches the steady outage load of attempts x normal for the deterministic policies', () => {
    // During a long outage every request makes all its attempts: 6, 36 and 4 calls.
    expect(rows['fixed-1s-x5']!.peakLoadAfterRecovery).toBe(6);
    expect(rows['fixed-1s-x5-2-layers']!.peakLoadAfterRecovery).toBe(36);
    expect(rows['exp-no-jitter-x3']!.peakLoadAfterRecovery).toBe(4);
  });
});

describe('retry-storm invariants', () => {
  it('accounts for every request and never serves more than capacity or offered load', () => {
    for (const seed of [1, 2]) {
      for (const policy of stormPolicies(base)) {
        const tr = simulateStorm(policy, base, seed);
        expect(tr.succeeded + tr.gaveUp + tr.pending, policy.id).toBe(tr.newRequests);
        const over = tr.served.filter((s, t) => s > tr.capacity[t]! || s > tr.offered[t]!);
        expect(over, policy.id).toEqual([]);
        const down = tr.capacity.slice(tr.outageStartTick, tr.outageEndTick);
        expect(down.every((c) => c === 0)).toBe(true);
      }
    }
  });

  it('with no outage every policy stays healthy at normal load', () => {
    for (const r of retryStorm.run({ ...base, outageS: 0 }, 1).rows) {
      expect(r.recoveredAfterMs, r.policy).toBe(0);
      expect(r.peakLoadAfterRecovery, r.policy).toBe(1);
    }
  });

  it('a 0% budget behaves like no retries; without thrashing the jittered policy recovers', () => {
    const noBudget = byPolicy(retryStorm.run({ ...base, budgetPercent: 0 }, 1).rows)['full-jitter-budget-10']!;
    expect(noBudget.callsPerRequest).toBe(1);
    const noThrash = byPolicy(retryStorm.run({ ...base, thrashFactor: 1, capacityPerTick: 400 }, 1).rows);
    expect(noThrash['full-jitter-x3']!.recoveredAfterMs).not.toBeNull();
  });

  it('is reproducible with a seed and varies across seeds', () => {
    const a = JSON.stringify(retryStorm.run(base, 5));
    expect(JSON.stringify(retryStorm.run(base, 5))).toBe(a);
    expect(JSON.stringify(retryStorm.run(base, 6))).not.toBe(a);
  });
});
