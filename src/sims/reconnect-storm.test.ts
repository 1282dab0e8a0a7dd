import { describe, expect, it } from 'vitest';
import { defaults } from './params.ts';
import {
  acceptedOf,
  reconnectPolicies,
  reconnectStorm,
  restartSchedule,
  simulateReconnect,
  type ReconnectParams,
  type ReconnectRow,
} from './reconnect-storm.ts';

const base = defaults(reconnectStorm.params) as ReconnectParams;
const byPolicy = (rows: ReconnectRow[]): Record<string, ReconnectRow> => Object.fromEntries(rows.map((r) => [r.policy, r]));
const withSet = (set: Partial<ReconnectParams>): ReconnectParams => ({ ...base, ...set }) as ReconnectParams;
const run = (set: Partial<ReconnectParams> = {}, seed = 1) => byPolicy(reconnectStorm.run(withSet(set), seed).rows);
const ABRUPT = ['no-backoff', 'exp-backoff', 'full-jitter'];
const DRAINING = ['drain-no-backoff', 'drain-full-jitter'];

describe('reconnect-storm invariants', () => {
  const cases: Partial<ReconnectParams>[] = [
    {},
    { deploy: 'rolling' },
    { instances: 1, clients: 2000 },
    { refusedCostPct: 5 },
    { reconnectAtOnce: true, acceptPerS: 35, drainS: 2 },
    { deploy: 'rolling', instances: 3, restartS: 4, drainS: 1, observeS: 30 },
  ];
  it('accounts for every client, and never accepts more handshakes than the instances taking connections can', () => {
    for (const set of cases) {
      const p = withSet(set);
      for (const seed of [1, 2]) {
        for (const policy of reconnectPolicies(p)) {
          const tr = simulateReconnect(policy, p, seed);
          const what = `${policy.id} ${JSON.stringify(set)} seed ${seed}`;
          const last = tr.connected.at(-1)!;
          // Every client is connected at the end, or waiting for an attempt after the end of the run.
          expect(last + tr.pending, what).toBe(p.clients);
          expect(
            tr.connectionsAtEnd.reduce((a, b) => a + b, 0),
            what,
          ).toBe(last);
          expect(
            tr.connectionsAtEnd.every((c) => c >= 0 && Number.isInteger(c)),
            what,
          ).toBe(true);
          // Every lost connection ends in exactly one accepted handshake, unless it is still pending.
          expect(
            tr.accepted.reduce((a, b) => a + b, 0),
            what,
          ).toBe(tr.disconnections - tr.pending);
          const over = tr.accepted.flatMap((a, t) => (a > tr.capacity[t]! || a + tr.failed[t]! !== tr.attempts[t]! ? [t] : []));
          expect(over, what).toEqual([]);
          expect(tr.connected.every((c) => c >= 0 && c <= p.clients)).toBe(true);
        }
      }
    }
  });

  it('gives the instances taking connections their handshakes per tick, and none to an instance restarting or draining', () => {
    const p = { ...base, deploy: 'rolling' as const };
    const perTick = p.acceptPerS / 10;
    for (const policy of reconnectPolicies(p)) {
      const tr = simulateReconnect(policy, p, 1);
      const restarts = restartSchedule(p, policy.drain);
      tr.capacity.forEach((cap, t) => {
        const out = restarts.filter((r) => t >= r.start && t < r.up).length;
        expect(cap, `${policy.id} tick ${t}`).toBe((p.instances - out) * perTick);
      });
    }
  });

  it('splits a capacity that does not divide into ticks without ever exceeding it', () => {
    const p = { ...base, acceptPerS: 35 };
    const tr = simulateReconnect(reconnectPolicies(p)[0]!, p, 1);
    // 3.5 handshakes per tick per instance: 3 and 4 in turn, 35 per second.
    expect(new Set(tr.capacity.slice(200))).toEqual(new Set([15, 20]));
    expect(tr.capacity.slice(200, 210).reduce((a, b) => a + b, 0)).toBe(175);
  });

  it('refuses more handshakes when refusals cost work: none get through at capacity / cost arrivals', () => {
    expect(acceptedOf(10, 8, 0.05)).toBe(8);
    expect(acceptedOf(10, 250, 0)).toBe(10);
    expect(acceptedOf(10, 100, 0.05)).toBe(5);
    expect(acceptedOf(10, 200, 0.05)).toBe(0);
    expect(acceptedOf(10, 11, 1)).toBe(0);
  });

  it('is reproducible with a seed and varies across seeds', () => {
    const a = JSON.stringify(reconnectStorm.run(base, 5));
    expect(JSON.stringify(reconnectStorm.run(base, 5))).toBe(a);
    expect(JSON.stringify(reconnectStorm.run(base, 6))).not.toBe(a);
    expect(run({}, 5)['full-jitter']).not.toEqual(run({}, 6)['full-jitter']);
  });
});

describe('reconnect-storm at the defaults (5,000 clients, 5 instances, 100 handshakes/s each, one restart)', () => {
  const rows = run();

  it('without backoff: the biggest storm, 20x the capacity of every instance, and the most failed handshakes', () => {
    expect(rows['no-backoff']!.peakAttemptsPerS).toBe(10000);
    expect(rows['no-backoff']!.peakLoad).toBe(20);
    for (const r of Object.values(rows)) expect(rows['no-backoff']!.peakAttemptsPerS, r.policy).toBeGreaterThanOrEqual(r.peakAttemptsPerS);
    for (const id of ['exp-backoff', 'full-jitter', ...DRAINING]) expect(rows['no-backoff']!.failedHandshakes, id).toBeGreaterThan(rows[id]!.failedHandshakes);
    expect(rows['no-backoff']!.failedHandshakes).toBeGreaterThan(10 * rows['full-jitter']!.failedHandshakes);
  });

  it('while a refusal costs nothing, reconnecting at once still gets the fleet back soonest: 1,000 clients at 400 accepts/s', () => {
    expect(rows['no-backoff']!.reconnectedAfterMs).toBe(2500);
    for (const id of ['exp-backoff', 'full-jitter', ...DRAINING]) {
      const ms = rows[id]!.reconnectedAfterMs;
      if (ms !== null) expect(ms, id).toBeGreaterThan(2500);
    }
  });

  it('exponential backoff without jitter: the same first wave, then synchronized waves; the longest recovery', () => {
    expect(rows['exp-backoff']!.peakAttemptsPerS).toBe(rows['no-backoff']!.peakAttemptsPerS);
    expect(rows['exp-backoff']!.reconnectedAfterMs).toBeNull();
    expect(rows['exp-backoff']!.offlineClientS).toBeGreaterThan(20 * rows['full-jitter']!.offlineClientS);
    // Each wave gets 40 clients through; the waves come every 30 s once the delay reaches the cap.
    const long = run({ observeS: 900 });
    expect(long['exp-backoff']!.reconnectedAfterMs).toBeGreaterThan(300_000);
  });

  it('full jitter: a peak several times lower and a fraction of the failed handshakes, reconnected within seconds', () => {
    expect(rows['full-jitter']!.peakAttemptsPerS).toBeLessThan(rows['no-backoff']!.peakAttemptsPerS / 5);
    expect(rows['full-jitter']!.failedHandshakes).toBeLessThan(rows['exp-backoff']!.failedHandshakes);
    expect(rows['full-jitter']!.reconnectedAfterMs).not.toBeNull();
    expect(rows['full-jitter']!.reconnectedAfterMs!).toBeLessThan(30_000);
  });

  it('draining: the lowest peaks, below capacity, no failed handshakes, and only a few clients without a connection at a time', () => {
    for (const id of DRAINING) {
      for (const other of ABRUPT) expect(rows[id]!.peakAttemptsPerS, `${id} vs ${other}`).toBeLessThan(rows[other]!.peakAttemptsPerS);
      expect(rows[id]!.peakLoad, id).toBeLessThan(1);
      expect(rows[id]!.failedHandshakes, id).toBe(0);
      // Each client is without a connection for one tick; the fleet is moved over the 10 s window.
      expect(rows[id]!.offlineClientS, id).toBe(100);
      expect(rows[id]!.reconnectedAfterMs, id).toBe(10000);
      expect(rows[id]!.maxDisconnected, id).toBeLessThan(50);
    }
    for (const id of ABRUPT) expect(rows[id]!.maxDisconnected, id).toBe(1000);
  });

  it('summarizes the capacity, the clients displaced, the lowest peak and the soonest reconnect', () => {
    const summary = Object.fromEntries(reconnectStorm.run(base, 1).summary.map((s) => [s.key, s.value]));
    expect(summary.fleetAcceptPerS).toBe(500);
    expect(summary.clientsOnRestarted).toBe(1000);
    expect(DRAINING).toContain(summary.lowestPeak);
    expect(summary.fastestReconnect).toBe('no-backoff');
  });

  it('draws attempts per second and connected clients for every policy, on the same time axis', () => {
    const result = reconnectStorm.run(base, 1);
    expect(result.charts.map((c) => c.id)).toEqual(['attempts', 'connected']);
    for (const chart of result.charts) {
      if (chart.kind === 'gantt') throw new Error('expected an xy chart');
      expect(chart.series.map((s) => s.id)).toEqual(result.rows.map((r) => r.policy));
      for (const s of chart.series) expect(s.x).toHaveLength(base.observeS * 10);
    }
    const attempts = result.charts[0]!;
    if (attempts.kind === 'gantt') throw new Error('expected an xy chart');
    expect(Math.max(...attempts.series[0]!.y)).toBe(rows['no-backoff']!.peakAttemptsPerS);
  });
});

describe('reconnect-storm beyond the defaults', () => {
  it('reconnecting at once after a lost connection brings the first wave back: jitter then lowers only the later ones', () => {
    const rows = run({ reconnectAtOnce: true });
    expect(rows['full-jitter']!.peakAttemptsPerS).toBe(rows['no-backoff']!.peakAttemptsPerS);
    expect(rows['exp-backoff']!.peakAttemptsPerS).toBe(rows['no-backoff']!.peakAttemptsPerS);
    for (const id of DRAINING) expect(rows[id]!.peakAttemptsPerS).toBeLessThan(rows['full-jitter']!.peakAttemptsPerS / 10);
  });

  it('once a refusal costs 5% of an accept, reconnecting at once never gets the fleet back: the refusals use up the capacity', () => {
    const rows = run({ refusedCostPct: 5 });
    // 1,000 clients over 4 (then 5) instances: 200 or more arrivals each, and 10 / 0.05 = 200 leaves no room.
    expect(rows['no-backoff']!.reconnectedAfterMs).toBeNull();
    expect(rows['no-backoff']!.failedHandshakes).toBeGreaterThan(1000 * rows['full-jitter']!.failedHandshakes);
    expect(rows['full-jitter']!.reconnectedAfterMs).not.toBeNull();
    expect(rows['drain-no-backoff']!.failedHandshakes).toBe(0);
    // At 2% it still gets there, later than when refusals are free.
    expect(run({ refusedCostPct: 2 })['no-backoff']!.reconnectedAfterMs!).toBeGreaterThan(run()['no-backoff']!.reconnectedAfterMs!);
  });

  it('a rolling deploy piles clients onto the instances restarted last: each later restart displaces more', () => {
    const rows = run({ deploy: 'rolling' });
    expect(rows['no-backoff']!.maxDisconnected).toBeGreaterThan(2000);
    for (const id of DRAINING) {
      for (const other of ABRUPT) expect(rows[id]!.peakAttemptsPerS).toBeLessThan(rows[other]!.peakAttemptsPerS);
      // The last GOAWAY goes out at the end of the fifth drain window.
      expect(rows[id]!.reconnectedAfterMs).toBe((4 * (base.drainS + base.restartS) + base.drainS) * 1000);
    }
    expect(rows['exp-backoff']!.reconnectedAfterMs).toBeNull();
  });

  it('with a single instance there is nowhere to go while it restarts, and draining only keeps it away longer', () => {
    const rows = run({ instances: 1, clients: 1000 });
    for (const id of ['no-backoff', 'full-jitter']) expect(rows[id]!.reconnectedAfterMs!, id).toBeGreaterThan(base.restartS * 1000);
    expect(rows['drain-no-backoff']!.failedHandshakes).toBeGreaterThan(rows['no-backoff']!.failedHandshakes);
  });

  it('says when the deploy did not finish within the time observed', () => {
    const rows = run({ deploy: 'rolling', observeS: 60 });
    for (const id of DRAINING) expect(rows[id]!.reconnectedAfterMs, id).toBeNull();
  });

  it('rejects a cap below the base', () => {
    expect(reconnectStorm.check!({ ...base, backoffBaseMs: 5000, backoffCapMs: 1000 })?.en).toMatch(/backoffCapMs/);
    expect(reconnectStorm.check!(base)).toBeNull();
  });
});
