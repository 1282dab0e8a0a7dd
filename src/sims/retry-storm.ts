/**
 * The retry-storm lab: clients retrying through an outage with each retry policy (or the learner's),
 * to show retries keeping a recovered backend down and what a retry budget changes.
 */
import { guarded, LearnerCodeError, learnerClass, learnerFunction, learnerLabel, learnerNumber, learnerPolicyId, type LearnerCode } from './learner.ts';
import { substream, type Rng } from './random.ts';
import {
  budgetPercentParam,
  compareWithBuiltIns,
  fleetParams,
  incident,
  recoveredAfterMs,
  recoveredPolicies,
  runPolicies,
  Schedule,
  secondsSince,
  stochasticRound,
  TICK_MS,
  ticks,
  timeChart,
} from './tick-model.ts';
import { TokenBucket, type RetryBudget } from './token-bucket.ts';
import type { SimDefinition, SimResult, Text } from './types.ts';

export { TICK_MS } from './tick-model.ts';

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
  /** A built-in policy, or `yours-<exercise>` for the learner's code. */
  policy: StormPolicyId | string;
  peakLoadAfterRecovery: number;
  recoveredAfterMs: number | null;
  callsPerRequest: number;
  userSuccessPct: number;
}

interface StormPolicy {
  id: StormPolicyId | string;
  label: Text;
  states: number;
  /** The state of the retry after a failure in `state`, or -1 to give up. */
  next(state: number): number;
  /** Ticks to wait before that retry. Policies without jitter ignore `rng`, so their failures are scheduled in bulk. */
  delay(state: number, rng: Rng): number;
  jittered: boolean;
  /** A fresh budget for a run: one deposit per new request, one spend per retry sent. */
  budget?: () => RetryBudget;
  /** The random stream it draws from (a learner's policy draws the stream of the built-in it stands beside). */
  stream?: string;
}

/** The budget's cap: one second of deposits, in whole tokens (the retry-budget exercise's maxTokens). */
export const budgetCap = (p: RetryStormParams): number => Math.round((p.budgetPercent / 100) * p.newPerTick * (1000 / TICK_MS));
const fleetBudget = (p: RetryStormParams) => () => new TokenBucket(p.budgetPercent / 100, budgetCap(p));

export function stormPolicies(p: RetryStormParams): StormPolicy[] {
  const fixed = ticks(p.retryBaseMs);
  const upTo =
    (retries: number) =>
    (s: number): number =>
      s < retries ? s + 1 : -1;
  const fullJitter = (s: number, rng: Rng): number => ticks(rng() * p.retryBaseMs * 2 ** s);
  return [
    { id: 'none', label: { vi: 'Không retry', en: 'No retries' }, states: 1, next: () => -1, delay: () => 0, jittered: false },
    {
      id: 'fixed-1s-x5',
      label: { vi: 'Cố định 1 s, 5 retry', en: 'Fixed 1 s, 5 retries' },
      states: 6,
      next: upTo(5),
      delay: () => fixed,
      jittered: false,
    },
    {
      // state = outer attempt * 6 + inner attempt: the middle layer retries 5 times, then the top layer retries it 5 times.
      id: 'fixed-1s-x5-2-layers',
      label: { vi: 'Cố định 1 s, 5 retry × 2 tầng', en: 'Fixed 1 s, 5 retries × 2 layers' },
      states: 36,
      next: (s) => (s % 6 < 5 ? s + 1 : s < 30 ? s + 1 : -1),
      delay: () => fixed,
      jittered: false,
    },
    {
      id: 'exp-no-jitter-x3',
      label: { vi: 'Exponential backoff không jitter, 3 retry', en: 'Exponential backoff, no jitter, 3 retries' },
      states: 4,
      next: upTo(3),
      delay: (s) => ticks(p.retryBaseMs * 2 ** s),
      jittered: false,
    },
    {
      id: 'full-jitter-x3',
      label: { vi: 'Backoff + full jitter, 3 retry', en: 'Backoff + full jitter, 3 retries' },
      states: 4,
      next: upTo(3),
      delay: fullJitter,
      jittered: true,
    },
    {
      id: 'full-jitter-budget-10',
      label: { vi: `Full jitter + retry budget ${p.budgetPercent}%`, en: `Full jitter + ${p.budgetPercent}% retry budget` },
      states: 4,
      next: upTo(3),
      delay: fullJitter,
      jittered: true,
      budget: fleetBudget(p),
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

export function simulateStorm(policy: StormPolicy, p: RetryStormParams, seed: number): StormTrace {
  const rng = substream(seed, `retry-storm/${policy.stream ?? policy.id}`);
  const { startTick: outageStartTick, endTick: outageEndTick, total } = incident(p.warmupS, p.outageS, p.observeS);
  const S = policy.states;
  const schedule = new Schedule(total, S);
  const budget = policy.budget?.();
  const offered: number[] = [];
  const served: number[] = [];
  const capacity: number[] = [];
  let succeeded = 0;
  let gaveUp = 0;
  const arriving = new Float64Array(S);

  for (let t = 0; t < total; t++) {
    arriving.set(schedule.row(t));
    arriving[0]! += p.newPerTick;
    if (budget) for (let i = 0; i < p.newPerTick; i++) budget.deposit();
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
      if (budget) {
        retrying = 0;
        while (retrying < failed && budget.trySpend()) retrying++;
      }
      gaveUp += failed - retrying;
      if (!policy.jittered) {
        if (retrying > 0) schedule.add(t + policy.delay(s, rng), next, retrying);
        continue;
      }
      for (let i = 0; i < retrying; i++) schedule.add(t + policy.delay(s, rng), next, 1);
    }
    served.push(servedNow);
    succeeded += servedNow;
  }
  return { offered, served, capacity, newRequests: p.newPerTick * total, succeeded, gaveUp, pending: schedule.pending, outageStartTick, outageEndTick };
}

const upTo3 = (s: number): number => (s < 3 ? s + 1 : -1);
const fullJitterTicks =
  (p: RetryStormParams) =>
  (s: number, rng: Rng): number =>
    ticks(rng() * p.retryBaseMs * 2 ** s);

/** A budget object the learner's code made (deposit and trySpend checked and named in errors). */
function learnerBudget(what: string, made: { deposit?: unknown; trySpend?: unknown }): RetryBudget {
  const method = (name: 'deposit' | 'trySpend') => {
    const fn = made?.[name];
    if (typeof fn !== 'function')
      throw new LearnerCodeError({ vi: `${what} của bạn không có phương thức ${name}.`, en: `Your ${what} has no ${name} method.` });
    return guarded(name, fn.bind(made) as () => unknown);
  };
  const deposit = method('deposit');
  const trySpend = method('trySpend');
  return { deposit: () => void deposit(), trySpend: () => trySpend() === true };
}

/** Calls `make`, a throw named with the call that threw. */
function made<T>(call: string, make: () => T): T {
  try {
    return make();
  } catch (err) {
    throw new LearnerCodeError({ vi: `${call} của bạn ném lỗi: ${String(err)}`, en: `Your ${call} threw: ${String(err)}` });
  }
}

/**
 * The learner's code as one more policy, beside the built-in one it implements: backoff's
 * fullJitterDelay in place of the lab's full jitter (3 retries); retry-budget's RatioRetryBudget in
 * place of the lab's budget; retry-helper's fullJitterDelay and tokenBucketBudget together (its
 * fetchWithRetry itself makes one asynchronous call per attempt, which this tick model of aggregate
 * counts cannot await). It draws the random stream of that built-in policy, so correct code gives
 * exactly its figures.
 */
export function learnerStormPolicy(code: LearnerCode, p: RetryStormParams): { policy: StormPolicy; builtIn: StormPolicyId } {
  const id = learnerPolicyId(code.exercise);
  const ratio = p.budgetPercent / 100;
  const maxTokens = budgetCap(p);
  const jitter = () => {
    const fullJitterDelay = learnerFunction<(failures: number, baseMs: number, capMs: number, random: Rng) => unknown>(code, 'fullJitterDelay');
    // The lab's policy has no cap; one above its three ceilings changes nothing.
    const capMs = p.retryBaseMs * 2 ** 3;
    return (s: number, rng: Rng) => ticks(learnerNumber('fullJitterDelay', fullJitterDelay(s + 1, p.retryBaseMs, capMs, rng)));
  };
  const shape = { id, states: 4, next: upTo3, jittered: true };
  if (code.exercise === 'backoff') {
    const label = learnerLabel({ vi: 'fullJitterDelay, 3 retry', en: 'fullJitterDelay, 3 retries' }, code.notPassing);
    return { builtIn: 'full-jitter-x3', policy: { ...shape, label, delay: jitter(), stream: 'full-jitter-x3' } };
  }
  if (code.exercise === 'retry-helper') {
    const tokenBucketBudget = learnerFunction<(opts: { ratio: number; maxTokens: number }) => { deposit?: unknown; trySpend?: unknown }>(
      code,
      'tokenBucketBudget',
    );
    const call = `tokenBucketBudget({ ratio: ${ratio}, maxTokens: ${maxTokens} })`;
    const label = learnerLabel(
      { vi: `fullJitterDelay + tokenBucketBudget ${p.budgetPercent}%`, en: `fullJitterDelay + tokenBucketBudget ${p.budgetPercent}%` },
      code.notPassing,
    );
    const budget = () =>
      learnerBudget(
        'tokenBucketBudget',
        made(call, () => tokenBucketBudget({ ratio, maxTokens })),
      );
    return { builtIn: 'full-jitter-budget-10', policy: { ...shape, label, delay: jitter(), budget, stream: 'full-jitter-budget-10' } };
  }
  const Budget = learnerClass<new (opts: { ratio: number; maxTokens: number }) => { deposit?: unknown; trySpend?: unknown }>(code, 'RatioRetryBudget');
  const call = `new RatioRetryBudget({ ratio: ${ratio}, maxTokens: ${maxTokens} })`;
  const label = learnerLabel(
    { vi: `full jitter + RatioRetryBudget ${p.budgetPercent}%`, en: `full jitter + RatioRetryBudget ${p.budgetPercent}%` },
    code.notPassing,
  );
  const budget = () =>
    learnerBudget(
      'RatioRetryBudget',
      made(call, () => new Budget({ ratio, maxTokens })),
    );
  return { builtIn: 'full-jitter-budget-10', policy: { ...shape, label, delay: fullJitterTicks(p), budget, stream: 'full-jitter-budget-10' } };
}

/** Healthy: no outage, no thrashing, every offered call served. */
function healthy(trace: StormTrace, t: number, p: RetryStormParams): boolean {
  return trace.capacity[t]! === p.capacityPerTick && trace.offered[t]! <= trace.capacity[t]!;
}

/**
 * Recovered: healthy from some tick after the outage until the end of the run, with at least 5 s left to see it.
 * Returns ms after the outage ended, or null.
 */
export function recoveryAfterMs(trace: StormTrace, p: RetryStormParams): number | null {
  return recoveredAfterMs(trace.offered.length, trace.outageEndTick, (t) => healthy(trace, t, p));
}

export const retryStorm: SimDefinition<RetryStormParams, RetryStormRow> = {
  name: 'retry-storm',
  title: { vi: 'Retry storm sau một đợt outage', en: 'Retry storm after an outage' },
  description: {
    vi: 'Dependency sập một lúc rồi lên lại; retry tích tụ trong lúc sập có giữ nó ở trạng thái quá tải (metastable) sau khi hết sự cố không?',
    en: 'A dependency goes down, then comes back; do the retries built up during the outage keep it overloaded (metastable) afterwards?',
  },
  params: [
    ...fleetParams(10000),
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
    budgetPercentParam,
  ],
  learnerExercises: ['backoff', 'retry-budget', 'retry-helper'],
  learnerNote: {
    vi: 'Với bài retry helper, lab chạy fullJitterDelay và tokenBucketBudget của bạn, không chạy chính fetchWithRetry: mỗi attempt của nó là một call bất đồng bộ, còn mô hình tick của lab đếm gộp 80 request mới mỗi 100 ms trong 250 s (khoảng 200.000 call đang chờ cùng lúc), không await từng call một.',
    en: 'For the retry helper, the lab runs your fullJitterDelay and tokenBucketBudget, not fetchWithRetry itself: each of its attempts is an asynchronous call, and the lab’s tick model counts 80 new requests per 100 ms in bulk for 250 s (about 200,000 calls at once) instead of awaiting each.',
  },
  run(p, seed, learner = []): SimResult<RetryStormRow> {
    const runs = runPolicies(
      stormPolicies(p),
      (pol) => simulateStorm(pol, p, seed),
      learner,
      (code) => learnerStormPolicy(code, p),
      (code) => learnerLabel({ vi: code.exercise, en: code.exercise }, code.notPassing),
    );
    const { traces, outcomes } = runs;
    const rows = runs.policies.map((pol, i): RetryStormRow => {
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
    compareWithBuiltIns(runs, rows, p.observeS);
    const axis = {
      xLabel: { vi: 'Thời gian từ lúc bắt đầu outage', en: 'Time since the outage started' },
      seconds: secondsSince(traces[0]!.outageStartTick, traces[0]!.offered.length),
      markers: [
        { x: 0, label: { vi: 'Bắt đầu outage', en: 'Outage starts' } },
        { x: p.outageS, label: { vi: 'Hết outage', en: 'Outage ends' } },
      ],
      per: p.newPerTick,
    };
    const chart = (id: string, title: Text, yLabel: Text, pick: (tr: StormTrace) => number[]) => timeChart({ id, title, yLabel, ...axis }, runs, pick);
    return {
      rows,
      columns: [
        { key: 'policy', label: { vi: 'Chính sách retry', en: 'Retry policy' } },
        { key: 'peakLoadAfterRecovery', label: { vi: 'Tải đỉnh sau outage', en: 'Peak load after the outage' }, unit: 'x' },
        { key: 'recoveredAfterMs', label: { vi: 'Hồi phục sau', en: 'Recovered after' }, unit: 'ms' },
        { key: 'callsPerRequest', label: { vi: 'Call mỗi request', en: 'Calls per request' } },
        { key: 'userSuccessPct', label: { vi: 'Request thành công', en: 'Requests that succeeded' }, unit: '%' },
      ],
      ...(outcomes.length ? { learner: outcomes } : {}),
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
          value: recoveredPolicies(rows),
        },
      ],
    };
  },
};
