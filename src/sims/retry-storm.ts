import { substream, type Rng } from './random.ts';
import type { SimDefinition, SimResult, Text, XYChart } from './types.ts';

export const TICK_MS = 100;

export type StormPolicyId = 'none' | 'fixed-1s-x5' | 'fixed-1s-x5-2-layers' | 'exp-no-jitter-x3' | 'full-jitter-x3' | 'full-jitter-budget-10';

export interface RetryStormParams extends Record<string, number> {
  capacityPerTick: number;
  newPerTick: number;
  warmupS: number;
  outageS: number;
  observeS: number;
  thrashThreshold: number;
  thrashFactor: number;
  retryBaseMs: number;
  budgetPercent: number;
}

export interface RetryStormRow extends Record<string, string | number | null> {
  policy: StormPolicyId;
  peakLoadAfterRecovery: number;
  recoveredAfterMs: number | null;
  callsPerRequest: number;
  userSuccessPct: number;
}

interface StormPolicy {
  id: StormPolicyId;
  label: Text;
  states: number;
  /** The state of the retry after a failure in `state`, or -1 to give up. */
  next(state: number): number;
  /** Ticks to wait before that retry. Policies without jitter ignore `rng`, so their failures are scheduled in bulk. */
  delay(state: number, rng: Rng): number;
  jittered: boolean;
  usesBudget: boolean;
}

const ticks = (ms: number): number => Math.max(1, Math.ceil(ms / TICK_MS));

export function stormPolicies(p: RetryStormParams): StormPolicy[] {
  const fixed = ticks(p.retryBaseMs);
  const upTo =
    (retries: number) =>
    (s: number): number =>
      s < retries ? s + 1 : -1;
  const fullJitter = (s: number, rng: Rng): number => ticks(rng() * p.retryBaseMs * 2 ** s);
  return [
    { id: 'none', label: { vi: 'Không retry', en: 'No retries' }, states: 1, next: () => -1, delay: () => 0, jittered: false, usesBudget: false },
    {
      id: 'fixed-1s-x5',
      label: { vi: 'Cố định 1 s, 5 retry', en: 'Fixed 1 s, 5 retries' },
      states: 6,
      next: upTo(5),
      delay: () => fixed,
      jittered: false,
      usesBudget: false,
    },
    {
      // state = outer attempt * 6 + inner attempt: the middle layer retries 5 times, then the top layer retries it 5 times.
      id: 'fixed-1s-x5-2-layers',
      label: { vi: 'Cố định 1 s, 5 retry × 2 tầng', en: 'Fixed 1 s, 5 retries × 2 layers' },
      states: 36,
      next: (s) => (s % 6 < 5 ? s + 1 : s < 30 ? s + 1 : -1),
      delay: () => fixed,
      jittered: false,
      usesBudget: false,
    },
    {
      id: 'exp-no-jitter-x3',
      label: { vi: 'Exponential backoff không jitter, 3 retry', en: 'Exponential backoff, no jitter, 3 retries' },
      states: 4,
      next: upTo(3),
      delay: (s) => ticks(p.retryBaseMs * 2 ** s),
      jittered: false,
      usesBudget: false,
    },
    {
      id: 'full-jitter-x3',
      label: { vi: 'Backoff + full jitter, 3 retry', en: 'Backoff + full jitter, 3 retries' },
      states: 4,
      next: upTo(3),
      delay: fullJitter,
      jittered: true,
      usesBudget: false,
    },
    {
      id: 'full-jitter-budget-10',
      label: { vi: `Full jitter + retry budget ${p.budgetPercent}%`, en: `Full jitter + ${p.budgetPercent}% retry budget` },
      states: 4,
      next: upTo(3),
      delay: fullJitter,
      jittered: true,
      usesBudget: true,
    },
  ];
}

export interface StormTrace {
  /** Calls offered to the dependency per tick (new + retries). */
  offered: number[];
  /** Calls it served per tick (each one completes a user request). */
  served: number[];
  capacity: number[];
  newRequests: number;
  succeeded: number;
  gaveUp: number;
  /** Retries scheduled past the end of the run. */
  pending: number;
  outageStartTick: number;
  outageEndTick: number;
}

/** Round x up or down at random so that the expected value is x. */
function stochasticRound(x: number, rng: Rng): number {
  const f = Math.floor(x);
  return f + (rng() < x - f ? 1 : 0);
}

export function simulateStorm(policy: StormPolicy, p: RetryStormParams, seed: number): StormTrace {
  const rng = substream(seed, `retry-storm/${policy.id}`);
  const outageStartTick = Math.round((p.warmupS * 1000) / TICK_MS);
  const outageEndTick = outageStartTick + Math.round((p.outageS * 1000) / TICK_MS);
  const total = outageEndTick + Math.round((p.observeS * 1000) / TICK_MS);
  const S = policy.states;
  const schedule = new Float64Array(total * S);
  const tokenCap = (p.budgetPercent / 100) * p.newPerTick * (1000 / TICK_MS); // one second of deposits
  let tokens = tokenCap;
  const offered: number[] = [];
  const served: number[] = [];
  const capacity: number[] = [];
  let succeeded = 0;
  let gaveUp = 0;
  let pending = 0;
  const arriving = new Float64Array(S);
  const schedule1 = (t: number, state: number, n: number): void => {
    if (t < total) schedule[t * S + state]! += n;
    else pending += n;
  };

  for (let t = 0; t < total; t++) {
    arriving.set(schedule.subarray(t * S, (t + 1) * S));
    arriving[0]! += p.newPerTick;
    if (policy.usesBudget) tokens = Math.min(tokenCap, tokens + (p.budgetPercent / 100) * p.newPerTick);
    let load = 0;
    for (let s = 0; s < S; s++) load += arriving[s]!;
    const down = t >= outageStartTick && t < outageEndTick;
    const cap = down ? 0 : load > p.thrashThreshold * p.capacityPerTick ? p.capacityPerTick * p.thrashFactor : p.capacityPerTick;
    offered.push(load);
    capacity.push(cap);
    // Share the capacity among the states in proportion, like a server that picks requests at random.
    let capLeft = Math.floor(cap);
    let loadLeft = load;
    let servedNow = 0;
    for (let s = 0; s < S; s++) {
      const n = arriving[s]!;
      if (n === 0) continue;
      const ok = loadLeft > 0 ? Math.min(n, capLeft, stochasticRound((n * capLeft) / loadLeft, rng)) : 0;
      capLeft -= ok;
      loadLeft -= n;
      servedNow += ok;
      const failed = n - ok;
      if (failed === 0) continue;
      const next = policy.next(s);
      if (next < 0) {
        gaveUp += failed;
        continue;
      }
      let retrying = failed;
      if (policy.usesBudget) {
        retrying = Math.min(failed, Math.floor(tokens));
        tokens -= retrying;
      }
      gaveUp += failed - retrying;
      if (!policy.jittered) {
        if (retrying > 0) schedule1(t + policy.delay(s, rng), next, retrying);
        continue;
      }
      for (let i = 0; i < retrying; i++) {
        const at = t + policy.delay(s, rng);
        if (at < total) schedule[at * S + next]! += 1;
        else pending += 1;
      }
    }
    served.push(servedNow);
    succeeded += servedNow;
  }
  return { offered, served, capacity, newRequests: p.newPerTick * total, succeeded, gaveUp, pending, outageStartTick, outageEndTick };
}

/** Healthy: no outage, no thrashing, every offered call served. */
function healthy(trace: StormTrace, t: number, p: RetryStormParams): boolean {
  return trace.capacity[t]! === p.capacityPerTick && trace.offered[t]! <= trace.capacity[t]!;
}

const STABLE_TICKS = Math.round(5000 / TICK_MS);

/**
 * Recovered: healthy from some tick after the outage until the end of the run, with at least 5 s left to see it.
 * Returns ms after the outage ended, or null.
 */
export function recoveryAfterMs(trace: StormTrace, p: RetryStormParams): number | null {
  const end = trace.offered.length;
  let first = end;
  while (first > trace.outageEndTick && healthy(trace, first - 1, p)) first--;
  return end - first >= STABLE_TICKS ? (first - trace.outageEndTick) * TICK_MS : null;
}

export const retryStorm: SimDefinition<RetryStormParams, RetryStormRow> = {
  name: 'retry-storm',
  title: { vi: 'Retry storm sau một đợt outage', en: 'Retry storm after an outage' },
  description: {
    vi: 'Dependency sập một lúc rồi lên lại; retry tích tụ trong lúc sập có giữ nó ở trạng thái quá tải (metastable) sau khi hết sự cố không?',
    en: 'A dependency goes down, then comes back; do the retries built up during the outage keep it overloaded (metastable) afterwards?',
  },
  params: [
    {
      key: 'capacityPerTick',
      kind: 'int',
      min: 1,
      max: 10000,
      step: 1,
      default: 100,
      label: { vi: 'Capacity (request mỗi tick 100 ms)', en: 'Capacity (requests per 100 ms tick)' },
    },
    { key: 'newPerTick', kind: 'int', min: 1, max: 10000, step: 1, default: 80, label: { vi: 'Request mới mỗi tick', en: 'New requests per tick' } },
    {
      key: 'warmupS',
      kind: 'number',
      min: 0,
      max: 60,
      step: 1,
      unit: 's',
      default: 10,
      label: { vi: 'Thời gian bình thường trước outage', en: 'Normal time before the outage' },
    },
    { key: 'outageS', kind: 'number', min: 0, max: 600, step: 1, unit: 's', default: 60, label: { vi: 'Thời lượng outage', en: 'Outage length' } },
    {
      key: 'observeS',
      kind: 'number',
      min: 10,
      max: 600,
      step: 10,
      unit: 's',
      default: 180,
      label: { vi: 'Theo dõi sau outage', en: 'Observed after the outage' },
    },
    {
      key: 'thrashThreshold',
      kind: 'number',
      min: 1,
      max: 10,
      step: 0.1,
      unit: 'x',
      default: 1.5,
      label: { vi: 'Ngưỡng thrash (tải / capacity)', en: 'Thrashing threshold (load / capacity)' },
    },
    {
      key: 'thrashFactor',
      kind: 'number',
      min: 0.05,
      max: 1,
      step: 0.05,
      default: 0.5,
      label: { vi: 'Capacity còn lại khi thrash', en: 'Capacity left while thrashing' },
    },
    {
      key: 'retryBaseMs',
      kind: 'number',
      min: 100,
      max: 10000,
      step: 100,
      unit: 'ms',
      default: 1000,
      label: { vi: 'Delay cố định / backoff base', en: 'Fixed delay / backoff base' },
    },
    {
      key: 'budgetPercent',
      kind: 'number',
      min: 0,
      max: 100,
      step: 1,
      unit: '%',
      default: 10,
      label: { vi: 'Retry budget (% request mới)', en: 'Retry budget (% of new requests)' },
    },
  ],
  run(p, seed): SimResult<RetryStormRow> {
    const policies = stormPolicies(p);
    const traces = policies.map((pol) => simulateStorm(pol, p, seed));
    const rows = policies.map((pol, i): RetryStormRow => {
      const tr = traces[i]!;
      const after = tr.offered.slice(tr.outageEndTick);
      const calls = tr.offered.reduce((a, b) => a + b, 0);
      return {
        policy: pol.id,
        peakLoadAfterRecovery: Math.round((Math.max(0, ...after) / p.newPerTick) * 10) / 10,
        recoveredAfterMs: recoveryAfterMs(tr, p),
        callsPerRequest: Math.round((calls / tr.newRequests) * 100) / 100,
        userSuccessPct: Math.round((tr.succeeded / tr.newRequests) * 1000) / 10,
      };
    });
    const seconds = traces[0]!.offered.map((_, t) => Math.round(((t - traces[0]!.outageStartTick) * TICK_MS) / 100) / 10);
    const markers = [
      { x: 0, label: { vi: 'Bắt đầu outage', en: 'Outage starts' } },
      { x: p.outageS, label: { vi: 'Hết outage', en: 'Outage ends' } },
    ];
    const chart = (id: string, title: Text, yLabel: Text, pick: (tr: StormTrace) => number[]): XYChart => ({
      id,
      kind: 'line',
      title,
      x: { label: { vi: 'Thời gian từ lúc bắt đầu outage', en: 'Time since the outage started' }, unit: 's' },
      y: { label: yLabel, unit: 'x' },
      series: policies.map((pol, i) => ({
        id: pol.id,
        label: pol.label,
        x: seconds,
        y: pick(traces[i]!).map((v) => Math.round((v / p.newPerTick) * 100) / 100),
      })),
      markers,
    });
    return {
      rows,
      columns: [
        { key: 'policy', label: { vi: 'Chính sách retry', en: 'Retry policy' } },
        { key: 'peakLoadAfterRecovery', label: { vi: 'Tải đỉnh sau outage', en: 'Peak load after the outage' }, unit: 'x' },
        { key: 'recoveredAfterMs', label: { vi: 'Hồi phục sau', en: 'Recovered after' }, unit: 'ms' },
        { key: 'callsPerRequest', label: { vi: 'Call mỗi request', en: 'Calls per request' } },
        { key: 'userSuccessPct', label: { vi: 'Request thành công', en: 'Requests that succeeded' }, unit: '%' },
      ],
      charts: [
        chart('load', { vi: 'Tải tới dependency (× bình thường)', en: 'Load on the dependency (× normal)' }, { vi: 'Tải', en: 'Load' }, (tr) => tr.offered),
        chart('goodput', { vi: 'Goodput (× bình thường)', en: 'Goodput (× normal)' }, { vi: 'Goodput', en: 'Goodput' }, (tr) => tr.served),
      ],
      summary: [
        {
          key: 'normalLoad',
          label: { vi: 'Tải bình thường / capacity', en: 'Normal load / capacity' },
          value: Math.round((p.newPerTick / p.capacityPerTick) * 100) / 100,
          unit: 'x',
        },
        {
          key: 'recovered',
          label: { vi: 'Chính sách hồi phục', en: 'Policies that recover' },
          value: rows
            .filter((r) => r.recoveredAfterMs !== null)
            .map((r) => r.policy)
            .join(', '),
        },
      ],
    };
  },
};
