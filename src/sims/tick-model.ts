/**
 * The queue/retry mechanics the tick-model simulations share (retry-storm, overload-recovery,
 * reconnect-storm): one tick is 100 ms and every wait is a whole number of ticks; an incident's
 * timeline (normal time, the incident, observation); a share of capacity dealt out at random among
 * groups of calls; retries counted per tick and state, with those that fall past the end of the run
 * counted as pending; "recovered for good"; and the lab side of a run: the built-in policies, the
 * learner's beside them, the charts over time, and the sliders of a client fleet. Each model keeps its own rules of who is served
 * and who retries; what is here is what they count the same way.
 */
import { compareRecovery, learnerPolicyId, runLearner, type LearnerCode, type LearnerOutcome } from './learner.ts';
import type { Rng } from './random.ts';
import type { Marker, NumberParamSpec, Text, XYChart } from './types.ts';

export const TICK_MS = 100;

/** A wait in whole ticks, at least one: a retry "at once" is sent the tick after the failure. */
export const ticks = (ms: number): number => Math.max(1, Math.ceil(ms / TICK_MS));

/** A span of seconds in ticks, to the nearest. */
export const ticksIn = (s: number): number => Math.round((s * 1000) / TICK_MS);

/** An incident in ticks: normal time up to `startTick`, the incident until `endTick`, then observation until `total`. */
export interface Incident {
  startTick: number;
  endTick: number;
  total: number;
}

export function incident(warmupS: number, incidentS: number, observeS: number): Incident {
  const startTick = ticksIn(warmupS);
  const endTick = startTick + ticksIn(incidentS);
  return { startTick, endTick, total: endTick + ticksIn(observeS) };
}

/** Round x up or down at random so that the expected value is x. */
export function stochasticRound(x: number, rng: Rng): number {
  const f = Math.floor(x);
  return f + (rng() < x - f ? 1 : 0);
}

/**
 * Calls counted per tick and state (a retry's attempt number, a client's failures in a row) for a
 * run of `total` ticks; what is scheduled at or past the end is counted in `pending` instead.
 */
export class Schedule {
  readonly cells: Float64Array;
  pending = 0;

  constructor(
    readonly total: number,
    readonly states: number,
  ) {
    this.cells = new Float64Array(total * states);
  }

  add(t: number, state: number, n: number): void {
    if (t < this.total) this.cells[t * this.states + state]! += n;
    else this.pending += n;
  }

  at(t: number, state: number): number {
    return this.cells[t * this.states + state]!;
  }

  /** Every state's count at tick t (a view, not a copy). */
  row(t: number): Float64Array {
    return this.cells.subarray(t * this.states, (t + 1) * this.states);
  }
}

const STABLE_TICKS = Math.round(5000 / TICK_MS);

/**
 * Recovered: healthy from some tick after the incident's end until the end of a run of `length`
 * ticks, with at least 5 s left to see it. Ms after the incident ended, or null.
 */
export function recoveredAfterMs(length: number, endTick: number, healthy: (t: number) => boolean): number | null {
  let first = length;
  while (first > endTick && healthy(first - 1)) first--;
  return length - first >= STABLE_TICKS ? (first - endTick) * TICK_MS : null;
}

/** What a lab's run needs of a policy: its id in the rows and series, and its label. */
export interface NamedPolicy {
  id: string;
  label: Text;
}

/** A learner's code made into a policy, and the built-in one it stands beside. */
export interface LearnerPolicy<P> {
  policy: P;
  builtIn: string;
}

/** The built-in policies and the learner's that ran, each with its trace, and every learner outcome. */
export interface PolicyRuns<P, T> {
  policies: P[];
  traces: T[];
  outcomes: LearnerOutcome[];
  /** For each outcome without an error, in order: the built-in policy it stands beside. */
  builtIns: string[];
}

/**
 * Runs the built-in policies, then each learner's code as one more policy (`make` turns it into a
 * policy; a missing export or a throw, in `make` or in the run, becomes that outcome's error).
 */
export function runPolicies<P extends NamedPolicy, T>(
  builtIns: readonly P[],
  simulate: (policy: P) => T,
  learner: readonly LearnerCode[],
  make: (code: LearnerCode) => LearnerPolicy<P>,
  label: (code: LearnerCode) => Text,
): PolicyRuns<P, T> {
  const policies = [...builtIns];
  const traces = policies.map(simulate);
  const outcomes: LearnerOutcome[] = [];
  const besides: string[] = [];
  for (const code of learner) {
    const base = { exercise: code.exercise, policy: learnerPolicyId(code.exercise), label: label(code), notPassing: code.notPassing === true };
    const { outcome, result } = runLearner(base, () => {
      const made = make(code);
      return { ...made, trace: simulate(made.policy) };
    });
    if (result) {
      outcome.label = result.policy.label;
      policies.push(result.policy);
      traces.push(result.trace);
      besides.push(result.builtIn);
    }
    outcomes.push(outcome);
  }
  return { policies, traces, outcomes, builtIns: besides };
}

/** Sets each learner outcome's comparison: its recovery against the built-in policy it stands beside. */
export function compareWithBuiltIns(
  runs: PolicyRuns<NamedPolicy, unknown>,
  rows: readonly { policy: string; recoveredAfterMs: number | null }[],
  observeS: number,
): void {
  for (const [i, outcome] of runs.outcomes.filter((o) => !o.error).entries()) {
    const yours = rows.find((r) => r.policy === outcome.policy)!;
    const theirs = rows.find((r) => r.policy === runs.builtIns[i])!;
    const label = runs.policies.find((x) => x.id === runs.builtIns[i])!.label;
    outcome.comparison = compareRecovery(yours.recoveredAfterMs, theirs.recoveredAfterMs, { vi: `"${label.vi}"`, en: `"${label.en}"` }, observeS);
  }
}

/** Seconds since the incident started, one a tick, to 0.1 s. */
export const secondsSince = (startTick: number, length: number): number[] =>
  Array.from({ length }, (_, t) => Math.round(((t - startTick) * TICK_MS) / 100) / 10);

/** A line chart over time of one figure per policy, as multiples of the normal load `per`, to 0.01. */
export function timeChart<T>(
  chart: { id: string; title: Text; yLabel: Text; xLabel: Text; seconds: number[]; markers: Marker[]; per: number },
  runs: { policies: readonly NamedPolicy[]; traces: readonly T[] },
  pick: (trace: T) => number[],
): XYChart {
  return {
    id: chart.id,
    kind: 'line',
    title: chart.title,
    x: { label: chart.xLabel, unit: 's' },
    y: { label: chart.yLabel, unit: 'x' },
    series: runs.policies.map((pol, i) => ({
      id: pol.id,
      label: pol.label,
      x: chart.seconds,
      y: pick(runs.traces[i]!).map((v) => Math.round((v / chart.per) * 100) / 100),
    })),
    markers: chart.markers,
  };
}

/** The policies that recovered, as a summary value: "full-jitter-x3, full-jitter-budget-10". */
export const recoveredPolicies = (rows: readonly { policy: string; recoveredAfterMs: number | null }[]): string =>
  rows
    .filter((r) => r.recoveredAfterMs !== null)
    .map((r) => r.policy)
    .join(', ');

/** The sliders every fleet-against-a-backend lab has, as data: capacity and new requests per tick (up to `max`). */
export const fleetParams = (max: number): NumberParamSpec[] => [
  {
    key: 'capacityPerTick',
    kind: 'int',
    min: 1,
    max,
    step: 1,
    default: 100,
    label: { vi: 'Capacity (request mỗi tick 100 ms)', en: 'Capacity (requests per 100 ms tick)' },
  },
  { key: 'newPerTick', kind: 'int', min: 1, max, step: 1, default: 80, label: { vi: 'Request mới mỗi tick', en: 'New requests per tick' } },
];

/** The fleet's retry budget slider: the share of new requests that may be retried. */
export const budgetPercentParam: NumberParamSpec = {
  key: 'budgetPercent',
  kind: 'number',
  min: 0,
  max: 100,
  step: 1,
  unit: '%',
  default: 10,
  label: { vi: 'Retry budget (% request mới)', en: 'Retry budget (% of new requests)' },
};
