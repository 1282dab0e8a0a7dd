import { describe, expect, it } from 'vitest';
import { deadlineChain, runChain, type DeadlineChainParams } from './deadline-chain.ts';
import { defaults } from './params.ts';

const base = defaults(deadlineChain.params) as DeadlineChainParams;
// Worst-case network time for a round trip per hop, for bounds.
const slack = (p: DeadlineChainParams): number => 6 * (p.hopLatencyMs + p.hopJitterMs);

describe('deadline-chain, bad configuration', () => {
  const bad = runChain('bad', base, 1);

  it('multiplies calls: (A→B attempts) x (B→C attempts) reach C, each doing all its work', () => {
    const attempts = (base.abRetries + 1) * (base.bcRetries + 1);
    expect(bad.row.callsToC).toBe(attempts);
    expect(bad.row.workAtCMs).toBe(Math.round(attempts * base.cWorkMs));
    expect(bad.row.cStoppedEarly).toBe(0);
  });

  it('the user sees a timeout when the gateway gives up', () => {
    expect(bad.row.userOutcome).toBe('timeout');
    expect(bad.row.userLatencyMs).toBe(base.gatewayTimeoutMs);
    expect(bad.row.lastWorkEndsMs).toBeGreaterThan(10 * base.gatewayTimeoutMs);
  });

  it('records every call in the timeline, children under their parent', () => {
    const byId = new Map(bad.timeline.map((c) => [c.id, c]));
    expect(bad.timeline.filter((c) => c.hop === 'B→C')).toHaveLength(bad.row.callsToC);
    expect(bad.timeline.filter((c) => c.hop === 'A→B')).toHaveLength(base.abRetries + 1);
    for (const c of bad.timeline) {
      expect(c.endMs).toBeGreaterThanOrEqual(c.startMs);
      if (c.parent !== null) {
        const parent = byId.get(c.parent)!;
        expect(parent.hop).toBe(c.hop === 'B→C' ? 'A→B' : 'gateway→A');
        expect(c.startMs).toBeGreaterThanOrEqual(parent.startMs);
      }
    }
  });

  it('with no retries, one call reaches C', () => {
    expect(runChain('bad', { ...base, abRetries: 0, bcRetries: 0 }, 1).row.callsToC).toBe(1);
  });
});

describe('deadline-chain, good configuration', () => {
  const good = runChain('good', base, 1);

  it('sends one call to C, which stops within the user budget', () => {
    expect(good.row.callsToC).toBe(1);
    expect(good.row.cStoppedEarly).toBe(1);
    expect(good.row.workAtCMs).toBeLessThan(base.gatewayTimeoutMs);
    expect(good.row.workAtCMs).toBeGreaterThan(base.gatewayTimeoutMs - 3 * base.marginMs - slack(base));
    expect(good.row.lastWorkEndsMs).toBeLessThanOrEqual(base.gatewayTimeoutMs + slack(base));
  });

  it('the user gets an error within the budget', () => {
    expect(good.row.userOutcome).not.toBe('ok');
    expect(good.row.userLatencyMs).toBeLessThanOrEqual(base.gatewayTimeoutMs);
  });

  it('passes less time down at each hop', () => {
    const deadlines = good.timeline.map((c) => c.deadlineMs!);
    expect(deadlines).toHaveLength(3);
    expect(deadlines[1]!).toBeLessThanOrEqual(deadlines[0]! - base.marginMs);
    expect(deadlines[2]!).toBeLessThanOrEqual(deadlines[1]! - base.marginMs);
  });

  it("still applies each hop's own timeout: min(own timeout, remaining - margin)", () => {
    const r = runChain('good', { ...base, gatewayTimeoutMs: 5000 }, 1);
    expect(r.row.userOutcome).not.toBe('ok');
    const ab = r.timeline.find((c) => c.hop === 'A→B')!;
    expect(ab.outcome).toBe('timeout');
    expect(ab.endMs - ab.startMs).toBeCloseTo(base.abTimeoutMs, 5);
    // A's give-up reaches B, which cancels its call to C: nobody works for a caller that has gone.
    expect(r.timeline.find((c) => c.hop === 'B→C')!.outcome).toBe('cancelled');
    expect(r.row.lastWorkEndsMs).toBeLessThanOrEqual(base.abTimeoutMs + slack(base));
  });

  it('succeeds when the budget and the timeouts leave C enough time', () => {
    const p = { ...base, gatewayTimeoutMs: 5000, abTimeoutMs: 4000, bcTimeoutMs: 3000 };
    const r = runChain('good', p, 1).row;
    expect(r.userOutcome).toBe('ok');
    expect(r.callsToC).toBe(1);
    expect(r.workAtCMs).toBe(p.cWorkMs);
    expect(r.userLatencyMs).toBeGreaterThanOrEqual(p.cWorkMs);
  });

  it('does not start work it cannot finish', () => {
    const r = runChain('good', { ...base, gatewayTimeoutMs: 60 }, 1).row;
    expect(r.callsToC).toBe(0);
    expect(r.userOutcome).toBe('deadline-exceeded');
  });
});

describe('deadline-chain result', () => {
  it('has a bad and a good row and two timelines', () => {
    const r = deadlineChain.run(base, 1);
    expect(r.rows.map((x) => x.mode)).toEqual(['bad', 'good']);
    expect(r.charts.map((c) => c.kind)).toEqual(['gantt', 'gantt']);
    expect(r.data!.bad.length).toBeGreaterThan(r.data!.good.length);
  });

  it('is reproducible with a seed; network jitter makes seeds differ', () => {
    expect(deadlineChain.run(base, 3)).toEqual(deadlineChain.run(base, 3));
    expect(deadlineChain.run(base, 3).data).not.toEqual(deadlineChain.run(base, 4).data);
  });
});
