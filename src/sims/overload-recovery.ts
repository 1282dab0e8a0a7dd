/**
 * The overload-recovery lab: a client fleet against a backend that loses capacity, with retries,
 * budgets, throttling and load shedding (or the learner's throttle), to see which let it recover.
 */
import { guarded, LearnerCodeError, learnerClass, learnerLabel, learnerPolicyId, type LearnerCode } from './learner.ts';
import { recoveryAfterMs, simulateOverload, type MakeThrottle, type OverloadParams, type OverloadTrace, type Protection } from './overload-model.ts';
import { budgetPercentParam, compareWithBuiltIns, fleetParams, recoveredPolicies, runPolicies, secondsSince, timeChart } from './tick-model.ts';
import type { SimDefinition, SimResult, Text } from './types.ts';

export type { OverloadParams } from './overload-model.ts';

export type OverloadPolicyId = 'none' | 'retries' | 'retries-budget' | 'retries-throttle' | 'retries-shed' | 'retries-throttle-shed';

export interface OverloadRow extends Record<string, string | number | null> {
  /** A built-in protection, or `yours-adaptive-throttle` for the learner's throttle. */
  policy: OverloadPolicyId | string;
  recoveredAfterMs: number | null;
  goodputDuringLossPct: number | null;
  callsPerRequest: number;
  userSuccessPct: number;
}

interface OverloadPolicy extends Protection {
  id: OverloadPolicyId | string;
  label: Text;
  /** The learner's throttle in place of the lab's. */
  throttleOf?: MakeThrottle;
  /** The random stream it draws from (the learner's policy draws the stream of the built-in it stands beside). */
  stream?: string;
}

/**
 * The learner's AdaptiveThrottle (the adaptive-throttle exercise) in place of the lab's, with
 * retries as in "retries-throttle": one throttle for the fleet, on the simulation's clock and a random
 * stream of its own, asked once per attempt. Correct code gives exactly that policy's figures.
 */
export function learnerThrottle(code: LearnerCode, p: OverloadParams): MakeThrottle {
  const Throttle = learnerClass<new (opts: { k: number; windowMs: number; now: () => number; random: () => number }) => unknown>(code, 'AdaptiveThrottle');
  return (now, random) => {
    const opts = { k: p.throttleK, windowMs: p.throttleWindowS * 1000, now, random };
    let made: { admit?: unknown; record?: unknown };
    try {
      made = new Throttle(opts) as typeof made;
    } catch (err) {
      throw new LearnerCodeError({
        vi: `new AdaptiveThrottle({ k: ${opts.k}, windowMs: ${opts.windowMs}, now, random }) của bạn ném lỗi: ${String(err)}`,
        en: `Your new AdaptiveThrottle({ k: ${opts.k}, windowMs: ${opts.windowMs}, now, random }) threw: ${String(err)}`,
      });
    }
    const method = (name: 'admit' | 'record') => {
      const fn = made[name];
      if (typeof fn !== 'function')
        throw new LearnerCodeError({ vi: `AdaptiveThrottle của bạn không có phương thức ${name}.`, en: `Your AdaptiveThrottle has no ${name} method.` });
      return guarded(name, fn.bind(made) as (accepted?: boolean) => unknown);
    };
    const admit = method('admit');
    const record = method('record');
    return { admit: () => admit() === true, record: (accepted) => void record(accepted) };
  };
}

export const OVERLOAD_POLICIES: readonly OverloadPolicy[] = [
  { id: 'none', label: { vi: 'Không retry, không bảo vệ', en: 'No retries, no protection' }, retries: false, budget: false, throttle: false, shed: false },
  { id: 'retries', label: { vi: 'Retry (full jitter)', en: 'Retries (full jitter)' }, retries: true, budget: false, throttle: false, shed: false },
  { id: 'retries-budget', label: { vi: 'Retry + retry budget', en: 'Retries + retry budget' }, retries: true, budget: true, throttle: false, shed: false },
  {
    id: 'retries-throttle',
    label: { vi: 'Retry + adaptive throttle', en: 'Retries + adaptive throttle' },
    retries: true,
    budget: false,
    throttle: true,
    shed: false,
  },
  { id: 'retries-shed', label: { vi: 'Retry + server shed load', en: 'Retries + server shedding' }, retries: true, budget: false, throttle: false, shed: true },
  {
    id: 'retries-throttle-shed',
    label: { vi: 'Retry + throttle + shed load', en: 'Retries + throttle + shedding' },
    retries: true,
    budget: false,
    throttle: true,
    shed: true,
  },
];

const round = (x: number, d = 1): number => Math.round(x * 10 ** d) / 10 ** d;

/**
 * The parameters a protection's run does not read: a lab's slider moves one parameter at a time, and
 * a built-in protection whose run ignores it need not be stepped through its 250 s again (most of a
 * redraw; docs/benchmarks.md). The throttle's K and window matter only with the throttle, the budget
 * only with the budget, a refusal's cost only with shedding.
 */
function unread(pol: Protection): ReadonlyArray<keyof OverloadParams> {
  return [
    ...(pol.throttle ? [] : (['throttleK', 'throttleWindowS'] as const)),
    ...(pol.budget ? [] : (['budgetPercent'] as const)),
    ...(pol.shed ? [] : (['rejectCostPct'] as const)),
  ];
}

/** The last built-in runs, by seed, protection and the parameters it reads (a run is a pure function of them). */
const builtInRuns = new Map<string, OverloadTrace>();
const KEPT_RUNS = 48;

function builtInRun(p: OverloadParams, pol: OverloadPolicy, seed: number): OverloadTrace {
  const skip = new Set(unread(pol).map(String));
  const read = Object.entries(p).filter(([key]) => !skip.has(key));
  const key = JSON.stringify([seed, pol.id, pol.stream ?? pol.id, read]);
  let trace = builtInRuns.get(key);
  if (trace)
    builtInRuns.delete(key); // re-inserted below: the map keeps the most recently used last
  else trace = simulateOverload(p, pol, seed, pol.stream ?? pol.id);
  builtInRuns.set(key, trace);
  if (builtInRuns.size > KEPT_RUNS) builtInRuns.delete(builtInRuns.keys().next().value!);
  return trace;
}

function row(policy: OverloadPolicy, tr: OverloadTrace, p: OverloadParams): OverloadRow {
  const sum = (a: number[], from = 0, to = a.length) => a.slice(from, to).reduce((s, v) => s + v, 0);
  const lossCapacity = sum(tr.capacity, tr.lossStartTick, tr.lossEndTick);
  const lossGood = sum(tr.goodput, tr.lossStartTick, tr.lossEndTick);
  return {
    policy: policy.id,
    recoveredAfterMs: recoveryAfterMs(tr, p),
    goodputDuringLossPct: lossCapacity > 0 ? round((lossGood / lossCapacity) * 100) : null,
    callsPerRequest: round(sum(tr.offered) / tr.newRequests, 2),
    userSuccessPct: round((tr.succeeded / tr.newRequests) * 100),
  };
}

export const overloadRecovery: SimDefinition<OverloadParams, OverloadRow> = {
  name: 'overload-recovery',
  title: { vi: 'Một đội client trước backend mất capacity', en: 'A client fleet against a backend that loses capacity' },
  description: {
    vi: 'Backend mất một phần capacity trong một lúc rồi lấy lại. Khi nào nó hồi phục, với retry, retry budget, adaptive throttle phía client và shed load phía server?',
    en: 'A backend loses part of its capacity for a while, then gets it back. When does it recover, with retries, a retry budget, client-side adaptive throttling and server-side shedding?',
  },
  params: [
    ...fleetParams(2000),
    {
      key: 'warmupS',
      kind: 'number',
      min: 0,
      max: 60,
      step: 1,
      unit: 's',
      default: 10,
      label: { vi: 'Thời gian bình thường trước sự cố', en: 'Normal time before the loss' },
    },
    {
      key: 'lossS',
      kind: 'number',
      min: 0,
      max: 300,
      step: 1,
      unit: 's',
      default: 60,
      label: { vi: 'Thời gian mất capacity', en: 'How long capacity is lost' },
    },
    {
      key: 'capacityLeftPct',
      kind: 'number',
      min: 0,
      max: 100,
      step: 5,
      unit: '%',
      default: 40,
      label: { vi: 'Capacity còn lại trong sự cố', en: 'Capacity left during the loss' },
    },
    {
      key: 'observeS',
      kind: 'number',
      min: 10,
      max: 600,
      step: 10,
      unit: 's',
      default: 180,
      label: { vi: 'Theo dõi sau khi capacity trở lại', en: 'Observed after capacity returns' },
    },
    { key: 'timeoutMs', kind: 'number', min: 100, max: 10000, step: 100, unit: 'ms', default: 1000, label: { vi: 'Timeout của client', en: 'Client timeout' } },
    {
      key: 'maxAttempts',
      kind: 'int',
      min: 1,
      max: 5,
      step: 1,
      default: 3,
      label: { vi: 'Số attempt tối đa (tính cả lần đầu)', en: 'Max attempts (first included)' },
    },
    {
      key: 'retryBaseMs',
      kind: 'number',
      min: 10,
      max: 2000,
      step: 10,
      unit: 'ms',
      default: 200,
      label: { vi: 'Backoff base (full jitter, trần 2 s)', en: 'Backoff base (full jitter, 2 s cap)' },
    },
    budgetPercentParam,
    { key: 'throttleK', kind: 'number', min: 1, max: 10, step: 0.1, default: 2, label: { vi: 'Hệ số K của throttle', en: 'Throttle multiplier K' } },
    { key: 'throttleWindowS', kind: 'number', min: 1, max: 300, step: 1, unit: 's', default: 120, label: { vi: 'Cửa sổ của throttle', en: 'Throttle window' } },
    {
      key: 'rejectCostPct',
      kind: 'number',
      min: 0,
      max: 100,
      step: 1,
      unit: '%',
      default: 5,
      label: { vi: 'Chi phí một lần từ chối ở server (% một request)', en: 'Cost of one refusal at the server (% of a request)' },
    },
  ],
  learnerExercises: ['adaptive-throttle'],
  run(p, seed, learner = []): SimResult<OverloadRow> {
    const throttled = OVERLOAD_POLICIES.find((x) => x.id === 'retries-throttle')!;
    const label = (code: LearnerCode) => learnerLabel({ vi: 'retry + AdaptiveThrottle', en: 'retries + AdaptiveThrottle' }, code.notPassing);
    const runs = runPolicies(
      OVERLOAD_POLICIES,
      // The learner's throttle runs every time: their code is theirs to change, and need not be pure.
      (pol) => (pol.throttleOf ? simulateOverload(p, pol, seed, pol.stream ?? pol.id, pol.throttleOf) : builtInRun(p, pol, seed)),
      learner,
      (code) => ({
        builtIn: throttled.id,
        policy: { ...throttled, id: learnerPolicyId(code.exercise), label: label(code), stream: throttled.id, throttleOf: learnerThrottle(code, p) },
      }),
      label,
    );
    const { traces, outcomes } = runs;
    const rows = runs.policies.map((pol, i) => row(pol, traces[i]!, p));
    compareWithBuiltIns(runs, rows, p.observeS);
    const axis = {
      xLabel: { vi: 'Thời gian từ lúc mất capacity', en: 'Time since capacity was lost' },
      seconds: secondsSince(traces[0]!.lossStartTick, traces[0]!.offered.length),
      markers: [
        { x: 0, label: { vi: 'Mất capacity', en: 'Capacity lost' } },
        { x: p.lossS, label: { vi: 'Capacity trở lại', en: 'Capacity back' } },
      ],
      per: p.newPerTick,
    };
    const chart = (id: string, title: Text, yLabel: Text, pick: (tr: OverloadTrace) => number[]) => timeChart({ id, title, yLabel, ...axis }, runs, pick);
    return {
      rows,
      ...(outcomes.length ? { learner: outcomes } : {}),
      columns: [
        { key: 'policy', label: { vi: 'Cách bảo vệ', en: 'Protection' } },
        { key: 'recoveredAfterMs', label: { vi: 'Hồi phục sau', en: 'Recovered after' }, unit: 'ms' },
        { key: 'goodputDuringLossPct', label: { vi: 'Capacity làm việc hữu ích trong sự cố', en: 'Capacity doing useful work during the loss' }, unit: '%' },
        { key: 'callsPerRequest', label: { vi: 'Attempt tới backend mỗi request', en: 'Attempts reaching the backend per request' } },
        { key: 'userSuccessPct', label: { vi: 'Request thành công', en: 'Requests that succeeded' }, unit: '%' },
      ],
      charts: [
        chart('goodput', { vi: 'Goodput (× tải bình thường)', en: 'Goodput (× normal load)' }, { vi: 'Goodput', en: 'Goodput' }, (tr) => tr.goodput),
        chart(
          'offered',
          { vi: 'Attempt tới backend (× tải bình thường)', en: 'Attempts reaching the backend (× normal load)' },
          { vi: 'Tải', en: 'Load' },
          (tr) => tr.offered,
        ),
      ],
      summary: [
        {
          key: 'normalLoad',
          label: { vi: 'Tải bình thường / capacity', en: 'Normal load / capacity' },
          value: round(p.newPerTick / p.capacityPerTick, 2),
          unit: 'x',
        },
        {
          key: 'lossLoad',
          label: { vi: 'Tải bình thường / capacity trong sự cố', en: 'Normal load / capacity during the loss' },
          value: p.capacityLeftPct > 0 ? round((p.newPerTick * 100) / (p.capacityPerTick * p.capacityLeftPct), 2) : null,
          unit: 'x',
        },
        {
          key: 'recovered',
          label: { vi: 'Cách bảo vệ hồi phục được', en: 'Protections that recover' },
          value: recoveredPolicies(rows),
        },
      ],
    };
  },
};
