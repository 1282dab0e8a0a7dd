import { describe, expect, it } from 'vitest';
import { simulateOverload, type OverloadParams } from './overload-model.ts';
import { OVERLOAD_POLICIES, overloadRecovery, type OverloadRow } from './overload-recovery.ts';
import { defaults } from './params.ts';

const base = defaults(overloadRecovery.params) as OverloadParams;
const byPolicy = (rows: OverloadRow[]): Record<string, OverloadRow> => Object.fromEntries(rows.map((r) => [r.policy, r]));

describe('overload-recovery at the defaults (capacity drops to 40% for 60 s under 80% load)', () => {
  const rows = byPolicy(overloadRecovery.run(base, 1).rows);

  it('does not recover within the 180 s observed with retries alone or with the default 10% retry budget', () => {
    // Within the window only: the budget row does recover when the run is long enough (see below).
    expect(base.observeS).toBe(180);
    expect(rows.retries!.recoveredAfterMs).toBeNull();
    expect(rows['retries-budget']!.recoveredAfterMs).toBeNull();
    // The budget does cut the attempts, from about 3 per request to about 1.1.
    expect(rows.retries!.callsPerRequest).toBeGreaterThan(2.5);
    expect(rows['retries-budget']!.callsPerRequest).toBeLessThan(1.2);
  });

  it('recovers without retries only after the backlog drains, about two minutes later', () => {
    const ms = rows.none!.recoveredAfterMs;
    expect(ms).not.toBeNull();
    // 60 s at a deficit of 40 per tick builds 24,000 queued attempts, drained at 20 per tick: 120 s.
    expect(ms!).toBeGreaterThan(100_000);
    expect(ms!).toBeLessThan(140_000);
  });

  it('recovers at once when the server sheds by deadline, and keeps most of its capacity useful during the loss', () => {
    expect(rows['retries-shed']!.recoveredAfterMs).toBeLessThanOrEqual(1000);
    for (const id of ['none', 'retries', 'retries-budget', 'retries-throttle']) {
      expect(rows[id]!.goodputDuringLossPct!, id).toBeLessThan(10);
    }
    expect(rows['retries-shed']!.goodputDuringLossPct!).toBeGreaterThan(75);
  });

  it('with the throttle as well, refusals waste less capacity, but the two-minute window delays full trust', () => {
    const both = rows['retries-throttle-shed']!;
    expect(both.goodputDuringLossPct!).toBeGreaterThan(rows['retries-shed']!.goodputDuringLossPct!);
    expect(both.callsPerRequest).toBeLessThan(rows['retries-shed']!.callsPerRequest);
    expect(both.recoveredAfterMs).not.toBeNull();
    expect(both.recoveredAfterMs!).toBeGreaterThan(rows['retries-shed']!.recoveredAfterMs!);
    // The lesson says "tens of seconds".
    expect(both.recoveredAfterMs!).toBeGreaterThanOrEqual(10_000);
    expect(both.recoveredAfterMs!).toBeLessThan(100_000);
  });

  it('the throttle alone sends less than normal load but cannot empty a queue of abandoned work within the run', () => {
    expect(rows['retries-throttle']!.callsPerRequest).toBeLessThan(1);
    expect(rows['retries-throttle']!.recoveredAfterMs).toBeNull();
  });
});

describe('overload-recovery with a retry budget: recovery comes later as the budget grows', () => {
  const recovered = (set: Record<string, number>) => byPolicy(overloadRecovery.run({ ...base, ...set }, 1).rows);

  it('recovers later with each step of the budget; a 0% budget behaves like no retries', () => {
    const none = recovered({}).none!.recoveredAfterMs!;
    const at = (budgetPercent: number) => recovered({ budgetPercent })['retries-budget']!.recoveredAfterMs;
    expect(at(0)).toBe(none);
    const one = at(1);
    const five = at(5);
    // Within the 180 s observed: the backlog drains at capacity minus the offered load, and each
    // retry the budget allows takes from that difference.
    expect(one).not.toBeNull();
    expect(five).not.toBeNull();
    expect(one!).toBeGreaterThan(none);
    expect(five!).toBeGreaterThan(one!);
    expect(five!).toBeLessThan(180_000);
  });

  it('with the default 10% budget, recovers once the run is long enough; retries without a budget never drain the backlog', () => {
    const rows = recovered({ observeS: 600 });
    const budget = rows['retries-budget']!.recoveredAfterMs;
    expect(budget).not.toBeNull();
    // About 28,800 queued attempts (60 s at 88 offered against 40 served per tick), drained at
    // 100 - 88 = 12 per tick: about 240 s, past the 180 s shown by default.
    expect(budget!).toBeGreaterThan(180_000);
    expect(budget!).toBeLessThan(300_000);
    // Without a budget the offered load stays near three times the normal load, above capacity.
    expect(rows.retries!.recoveredAfterMs).toBeNull();
    expect(rows.retries!.callsPerRequest).toBeGreaterThan(2.5);
  });
});

describe('overload-recovery with a 10 s throttle window', () => {
  const rows = byPolicy(overloadRecovery.run({ ...base, throttleWindowS: 10 }, 1).rows);

  it('recovers with the throttle alone, and within seconds with the throttle and shedding', () => {
    expect(rows['retries-throttle']!.recoveredAfterMs).not.toBeNull();
    expect(rows['retries-throttle-shed']!.recoveredAfterMs!).toBeLessThan(10_000);
    expect(rows['retries-throttle-shed']!.goodputDuringLossPct!).toBeGreaterThan(rows['retries-shed']!.goodputDuringLossPct!);
  });
});

describe('overload-recovery invariants', () => {
  it('never serves more than the capacity, and never more requests than were made', () => {
    for (const seed of [1, 2]) {
      for (const policy of OVERLOAD_POLICIES) {
        const tr = simulateOverload(base, policy, seed, policy.id);
        const over = tr.goodput.filter((g, t) => g > tr.capacity[t]!);
        expect(over, policy.id).toEqual([]);
        expect(tr.succeeded, policy.id).toBeLessThanOrEqual(tr.newRequests);
        const lost = tr.capacity.slice(tr.lossStartTick, tr.lossEndTick);
        expect(
          lost.every((c) => c === base.capacityPerTick * 0.4),
          policy.id,
        ).toBe(true);
        if (!policy.throttle)
          expect(
            tr.throttled.every((n) => n === 0),
            policy.id,
          ).toBe(true);
        if (!policy.shed)
          expect(
            tr.shed.every((n) => n === 0),
            policy.id,
          ).toBe(true);
      }
    }
  });

  it('with no loss of capacity every policy is healthy throughout and every request succeeds', () => {
    for (const r of overloadRecovery.run({ ...base, lossS: 0 }, 1).rows) {
      expect(r.recoveredAfterMs, r.policy).toBe(0);
      expect(r.callsPerRequest, r.policy).toBe(1);
      expect(r.goodputDuringLossPct, r.policy).toBeNull();
    }
  });

  it('a loss that leaves enough capacity for the normal load hurts no policy', () => {
    for (const r of overloadRecovery.run({ ...base, capacityLeftPct: 90 }, 1).rows) {
      expect(r.recoveredAfterMs, r.policy).toBe(0);
      expect(r.userSuccessPct, r.policy).toBeGreaterThan(99);
    }
  });

  it('is reproducible with a seed and varies across seeds', () => {
    const a = JSON.stringify(overloadRecovery.run(base, 5));
    expect(JSON.stringify(overloadRecovery.run(base, 5))).toBe(a);
    expect(JSON.stringify(overloadRecovery.run(base, 6))).not.toBe(a);
  });
});

describe('overload-recovery keeps the runs of built-in protections a parameter change does not touch', () => {
  /** Each protection's goodput and load, straight from the model with nothing kept. */
  const fresh = (p: OverloadParams, seed: number) =>
    OVERLOAD_POLICIES.map((pol) => {
      const tr = simulateOverload(p, pol, seed, pol.id);
      const scale = (a: number[]) => a.map((v) => Math.round((v / p.newPerTick) * 100) / 100);
      return { id: pol.id, goodput: scale(tr.goodput), offered: scale(tr.offered) };
    });
  const charted = (p: OverloadParams, seed: number) => {
    const { charts } = overloadRecovery.run(p, seed);
    const series = (id: string) => (charts.find((c) => c.id === id) as { series: { id: string; y: number[] }[] }).series;
    return OVERLOAD_POLICIES.map((pol) => ({
      id: pol.id,
      goodput: series('goodput').find((s) => s.id === pol.id)!.y,
      offered: series('offered').find((s) => s.id === pol.id)!.y,
    }));
  };

  it('after a run at the defaults, moving any one parameter gives every protection the figures of a fresh run', () => {
    for (const param of overloadRecovery.params) {
      expect(param.kind === 'int' || param.kind === 'number', param.key).toBe(true);
      const { key, min, max, step } = param as { key: keyof OverloadParams; min: number; max: number; step: number };
      const from = base[key];
      // Halfway to the far end of the slider, on a step: a change large enough to move what reads it.
      const to = Math.round((from + ((from === max ? min : max) - from) / 2) / step) * step;
      overloadRecovery.run(base, 3);
      const moved = { ...base, [key]: to };
      expect(charted(moved, 3), `${key}: ${from} -> ${to}`).toEqual(fresh(moved, 3));
    }
  });

  it('a throttle change moves the throttled protections and leaves the others as they were', () => {
    const before = charted(base, 4);
    const after = charted({ ...base, throttleK: 1.2 }, 4);
    for (const [i, pol] of OVERLOAD_POLICIES.entries()) {
      if (pol.throttle) expect(after[i], pol.id).not.toEqual(before[i]);
      else expect(after[i], pol.id).toEqual(before[i]);
    }
  });
});
