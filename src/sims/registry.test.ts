import { describe, expect, it } from 'vitest';
import { defaults } from './params.ts';
import { DEFAULT_SEED, SIMS, SimParamError, getSim, runSim, validateSimParams } from './registry.ts';
import type { Chart } from './types.ts';

const VIETNAMESE_MARKS = /[àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ]/i;

/** The row keys each lesson table relies on (issue 6). */
const ROW_KEYS: Record<string, string[]> = {
  'jitter-waves': ['strategy', 'busiestWindow', 'totalCalls'],
  'retry-storm': ['policy', 'peakLoadAfterRecovery', 'recoveredAfterMs'],
  hedging: ['mode', 'p50', 'p99', 'p999', 'extraRequestsPct'],
  'deadline-chain': ['mode', 'callsToC', 'workAtCMs', 'userLatencyMs'],
  amplification: ['layers', 'worstCaseCalls', 'expectedCalls'],
  'timeout-choice': ['percentile', 'latencyMs', 'falseTimeoutPct'],
  'overload-recovery': ['policy', 'recoveredAfterMs', 'goodputDuringLossPct', 'userSuccessPct'],
  'reconnect-storm': ['policy', 'peakAttemptsPerS', 'peakLoad', 'failedHandshakes', 'reconnectedAfterMs'],
};

function chartProblems(c: Chart): string[] {
  if (c.kind === 'gantt')
    return c.bars.filter((b) => !(b.end >= b.start) || !c.lanes.some((l) => l.id === b.lane)).map((b) => `${c.id}: bar ${JSON.stringify(b)}`);
  return c.series.filter((s) => s.x.length !== s.y.length || s.x.length === 0 || ![...s.x, ...s.y].every(Number.isFinite)).map((s) => `${c.id}/${s.id}`);
}

/** Paths of values that would not survive JSON or postMessage unchanged (functions, NaN, Infinity, class instances). */
function notPlain(v: unknown, path = '$'): string[] {
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'boolean') return [];
  if (typeof v === 'number') return Number.isFinite(v) ? [] : [path];
  if (Array.isArray(v)) return v.flatMap((x, i) => notPlain(x, `${path}[${i}]`));
  if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
    return Object.entries(v).flatMap(([k, x]) => notPlain(x, `${path}.${k}`));
  }
  return [path];
}

describe('the simulation registry', () => {
  it('lists the eight simulations of the course under unique names', () => {
    expect(SIMS.map((s) => s.name).sort()).toEqual(Object.keys(ROW_KEYS).sort());
  });

  for (const sim of SIMS) {
    describe(sim.name, () => {
      it('describes itself in both languages, with Vietnamese diacritics', () => {
        for (const t of [sim.title, sim.description]) {
          expect(t.en.length).toBeGreaterThan(0);
          expect(t.vi).toMatch(VIETNAMESE_MARKS);
        }
        for (const p of sim.params) {
          expect(p.label.vi.length * p.label.en.length, p.key).toBeGreaterThan(0);
          if (p.kind === 'select') for (const o of p.options) expect(o.label.vi.length * o.label.en.length).toBeGreaterThan(0);
        }
        expect(new Set(sim.params.map((p) => p.key)).size).toBe(sim.params.length);
      });

      it('has defaults that pass its own validation', () => {
        expect(validateSimParams(sim, {})).toEqual({ ok: true, params: defaults(sim.params) });
      });

      it('returns plain, chart-ready data with the lesson table columns', () => {
        const r = sim.run(defaults(sim.params), DEFAULT_SEED);
        expect(notPlain(r)).toEqual([]);
        expect(r.rows.length).toBeGreaterThan(0);
        for (const key of ROW_KEYS[sim.name]!) expect(r.columns.map((c) => c.key)).toContain(key);
        for (const row of r.rows) {
          for (const c of r.columns) expect(Object.hasOwn(row, c.key), `${c.key}`).toBe(true);
          for (const v of Object.values(row)) if (typeof v === 'number') expect(Number.isFinite(v)).toBe(true);
        }
        expect(r.charts.length).toBeGreaterThan(0);
        expect(r.charts.flatMap(chartProblems)).toEqual([]);
      });
    });
  }
});

describe('runSim', () => {
  it('runs by name with partial parameters', () => {
    const r = runSim('amplification', { layers: 3, attemptsPerLayer: 4 });
    expect(r.rows.at(-1)!.expectedCalls).toBe(64);
  });

  it('rejects unknown simulations and parameters with messages in both languages', () => {
    const fail = (f: () => unknown): SimParamError => {
      try {
        f();
      } catch (e) {
        if (e instanceof SimParamError) return e;
        throw e;
      }
      throw new Error('expected a SimParamError');
    };
    const unknownSim = fail(() => runSim('nope'));
    expect(unknownSim.errors[0]!.en).toContain('No simulation "nope"');
    expect(unknownSim.errors[0]!.vi).toMatch(VIETNAMESE_MARKS);
    const unknownParam = fail(() => runSim('hedging', { speed: 1 }));
    expect(unknownParam.errors[0]!.en).toContain('Unknown parameter "speed"');
    expect(fail(() => runSim('hedging', { requests: 5 })).message).toMatch(/between/);
    expect(fail(() => runSim('hedging', { minMs: 80, maxMs: 60 })).message).toMatch(/maxMs/);
    expect(fail(() => runSim('hedging', {}, -1)).message).toMatch(/seed/);
    expect(fail(() => runSim('hedging', {}, 1.5)).message).toMatch(/seed/);
  });

  it('finds simulations by name only', () => {
    expect(getSim('retry-storm')?.name).toBe('retry-storm');
    expect(getSim('Retry-Storm')).toBeUndefined();
  });
});
