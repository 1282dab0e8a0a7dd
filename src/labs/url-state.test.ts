import { describe, expect, it } from 'vitest';
import { getSim, runSim, type AnySim } from '../sims/index.ts';
import { focusSpec, prepareView } from './prepare.ts';
import { defaultState, hashToState, stateToHash } from './url-state.ts';

const storm = getSim('retry-storm')!;
const hedging = getSim('hedging')!;
const focusOf = (sim: AnySim) => focusSpec(prepareView(runSim(sim.name)));

describe('shareable lab links', () => {
  it('writes only what differs from the defaults, plus the seed and the highlighted row', () => {
    const state = { ...defaultState(storm), seed: 7, focus: 'full-jitter-x3' };
    state.params = { ...state.params, budgetPercent: 20, outageS: 30 };
    expect(stateToHash(storm, state, focusOf(storm))).toBe('#lab-retry-storm?outageS=30&budgetPercent=20&seed=7&policy=full-jitter-x3');
    expect(stateToHash(storm, defaultState(storm))).toBe('#lab-retry-storm?seed=1');
  });

  it('reads back exactly the state it wrote (numbers, booleans, focus)', () => {
    const focus = focusOf(hedging);
    const state = {
      params: { ...defaultState(hedging).params, adaptiveDelay: true, utilisation: 0.3, hedgeAfterPercentile: 99.5 },
      seed: 4294967295,
      focus: 'hedged',
    };
    const parsed = hashToState(hedging, stateToHash(hedging, state, focus), focus);
    expect(parsed).toEqual({ state, errors: [] });
  });

  it('ignores a hash that belongs to another lab or another anchor', () => {
    expect(hashToState(storm, '#lab-hedging?seed=2')).toBeNull();
    expect(hashToState(storm, '#lab-retry-stormy?seed=2')).toBeNull();
    expect(hashToState(storm, '#key-points')).toBeNull();
    expect(hashToState(storm, '#lab-retry-storm')?.state).toEqual(defaultState(storm));
  });

  it('keeps the good parts of a damaged link and says what it dropped, in both languages', () => {
    const parsed = hashToState(storm, '#lab-retry-storm?budgetPercent=500&outageS=30&nope=1&seed=-3&policy=bogus', focusOf(storm))!;
    expect(parsed.state.params.outageS).toBe(30);
    expect(parsed.state.params.budgetPercent).toBe(10);
    expect(parsed.state.seed).toBe(1);
    expect(parsed.state.focus).toBeNull();
    const en = parsed.errors.map((e) => e.en).join(' ');
    expect(en).toContain('budgetPercent');
    expect(en).toContain('nope');
    expect(en).toContain('Seed "-3"');
    expect(en).toContain('"bogus"');
    expect(parsed.errors.every((e) => /[ạảãàáâầấậẩẫăằắặẳẵđêềếệểễôồốộổỗơờớợởỡưừứựửữ]/i.test(e.vi))).toBe(true);
  });

  it('falls back to the defaults when parameters break a constraint between them', () => {
    const parsed = hashToState(hedging, '#lab-hedging?minMs=100&maxMs=50')!;
    expect(parsed.state.params.minMs).toBe(20);
    expect(parsed.errors).toHaveLength(1);
  });
});
