/**
 * The jitter-waves lab: many clients retrying after one failure, with each backoff strategy (or the
 * learner's), to show how jitter spreads retries that would otherwise arrive in waves.
 */
import { EventHeap } from './heap.ts';
import { backoffDelay, JITTER_STRATEGIES, type BackoffConfig, type JitterStrategy } from './jitter.ts';
import { learnerFunction, learnerLabel, learnerNumber, learnerPolicyId, runLearner, type LearnerCode, type LearnerOutcome } from './learner.ts';
import { substream, type Rng } from './random.ts';
import { max, windowCounts } from './stats.ts';
import type { SimDefinition, SimResult, XYChart } from './types.ts';

export interface JitterWavesParams extends Record<string, number | string> {
  clients: number;
  retries: number;
  baseMs: number;
  capMs: number;
  windowMs: number;
  capacityPerWindow: number;
  /** The strategy the learner's backoff code runs, with "use my code" on. */
  yoursStrategy: JitterStrategy;
}

/** The sleep before retry number `attempt` (0 for the first), as backoffDelay takes it. */
type DelayFn = (strategy: JitterStrategy, attempt: number, previousMs: number, cfg: BackoffConfig, rng: Rng) => number;

export interface JitterWavesRow extends Record<string, string | number | null> {
  /** A built-in strategy, or `yours-backoff` for the learner's code. */
  strategy: JitterStrategy | string;
  busiestWindow: number;
  totalCalls: number;
  retries: number;
  succeededClients: number;
  lastCallMs: number;
}

export interface StrategyRun {
  row: JitterWavesRow;
  /** Time of every retry (ms after the common failure), in the order they happened. */
  retryTimes: number[];
  /** Every delay drawn, for bound checks: [attempt, previous delay, delay]. */
  delays: [number, number, number][];
}

/**
 * Every client sends at t = 0 and fails; failed calls are retried after a backoff delay.
 * With capacityPerWindow = 0 the dependency stays down and every call fails (the seed's experiment);
 * otherwise the first `capacityPerWindow` calls of each window succeed and the rest fail.
 */
export function runStrategy(strategy: JitterStrategy, p: JitterWavesParams, seed: number, delayOf: DelayFn = backoffDelay, id: string = strategy): StrategyRun {
  const rng = substream(seed, `jitter-waves/${strategy}`);
  const heap = new EventHeap();
  const attempt = new Int32Array(p.clients);
  const previous = new Float64Array(p.clients).fill(p.baseMs);
  const served = new Map<number, number>();
  const retryTimes: number[] = [];
  const delays: [number, number, number][] = [];
  let totalCalls = 0;
  let succeeded = 0;
  let lastCallMs = 0;
  for (let c = 0; c < p.clients; c++) heap.push(0, c);
  while (heap.size > 0) {
    const c = heap.pop();
    const t = heap.lastTime;
    totalCalls++;
    lastCallMs = t;
    if (attempt[c]! > 0) retryTimes.push(t);
    const w = Math.floor(t / p.windowMs);
    const used = served.get(w) ?? 0;
    if (used < p.capacityPerWindow) {
      served.set(w, used + 1);
      succeeded++;
      continue;
    }
    const n = attempt[c]!;
    if (n >= p.retries) continue;
    const d = delayOf(strategy, n, previous[c]!, { baseMs: p.baseMs, capMs: p.capMs }, rng);
    delays.push([n, previous[c]!, d]);
    previous[c] = d;
    attempt[c] = n + 1;
    heap.push(t + d, c);
  }
  const windows = countWindows(retryTimes, p.windowMs);
  return {
    row: {
      strategy: id,
      busiestWindow: windows.length > 0 ? max(windows) : 0,
      totalCalls,
      retries: retryTimes.length,
      succeededClients: succeeded,
      lastCallMs: Math.round(lastCallMs),
    },
    retryTimes,
    delays,
  };
}

/** "Your full jitter's busiest window had 86 retries, as many as the lab's." */
function compareBusiest(yours: number, theirs: number, strategy: { vi: string; en: string }): { vi: string; en: string } {
  if (yours === theirs) {
    return {
      vi: `Cửa sổ đông nhất với code của bạn có ${yours} retry, đúng bằng ${strategy.vi} của lab.`,
      en: `With your code the busiest window had ${yours} retries, exactly as many as the lab's ${strategy.en}.`,
    };
  }
  const ratio = theirs > 0 ? Math.round((yours / theirs) * 10) / 10 : null;
  const times = ratio === null ? '' : ` (${ratio}×)`;
  return {
    vi: `Cửa sổ đông nhất với code của bạn có ${yours} retry, so với ${theirs} của ${strategy.vi} trong lab${times}.`,
    en: `With your code the busiest window had ${yours} retries, against ${theirs} for the lab's ${strategy.en}${times}.`,
  };
}

function countWindows(times: readonly number[], width: number): number[] {
  const last = times.length > 0 ? max(times) : 0;
  return windowCounts(times, width, 0, Math.floor(last / width) + 1);
}

/**
 * The learner's backoff functions (the backoff exercise) in place of the lab's formulas, for one
 * strategy: `failures` counts from 1 there, `attempt` from 0 here. It draws that strategy's random
 * stream, so correct code gives exactly the lab's figures for it.
 */
export function learnerDelays(code: LearnerCode): DelayFn {
  const fns = {
    none: () => learnerFunction<(f: number, b: number, c: number) => unknown>(code, 'exponentialDelay'),
    full: () => learnerFunction<(f: number, b: number, c: number, r: Rng) => unknown>(code, 'fullJitterDelay'),
    equal: () => learnerFunction<(f: number, b: number, c: number, r: Rng) => unknown>(code, 'equalJitterDelay'),
    decorrelated: () => learnerFunction<(prev: number, b: number, c: number, r: Rng) => unknown>(code, 'decorrelatedJitterDelay'),
  };
  const names = { none: 'exponentialDelay', full: 'fullJitterDelay', equal: 'equalJitterDelay', decorrelated: 'decorrelatedJitterDelay' };
  const picked = new Map<JitterStrategy, (a: number, b: number, c: number, r: Rng) => unknown>();
  return (strategy, attempt, previousMs, { baseMs, capMs }, rng) => {
    let fn = picked.get(strategy);
    if (!fn) picked.set(strategy, (fn = fns[strategy]() as (a: number, b: number, c: number, r: Rng) => unknown));
    const first = strategy === 'decorrelated' ? previousMs : attempt + 1;
    return learnerNumber(names[strategy], fn(first, baseMs, capMs, rng));
  };
}

const LABELS: Record<JitterStrategy, { vi: string; en: string }> = {
  none: { vi: 'Không jitter (base × 2^n)', en: 'No jitter (base × 2^n)' },
  equal: { vi: 'Equal jitter', en: 'Equal jitter' },
  full: { vi: 'Full jitter', en: 'Full jitter' },
  decorrelated: { vi: 'Decorrelated jitter (AWS)', en: 'Decorrelated jitter (AWS)' },
};

export const jitterWaves: SimDefinition<JitterWavesParams, JitterWavesRow> = {
  name: 'jitter-waves',
  title: { vi: 'Jitter phá các đợt sóng retry', en: 'Jitter breaks up retry waves' },
  description: {
    vi: 'Nhiều client cùng lỗi một lúc rồi retry với backoff; đếm số retry rơi vào mỗi cửa sổ thời gian với từng kiểu jitter.',
    en: 'Many clients fail at the same moment and retry with backoff; count the retries landing in each time window for each jitter strategy.',
  },
  params: [
    { key: 'clients', kind: 'int', min: 1, max: 20000, step: 1, default: 1000, label: { vi: 'Số client', en: 'Clients' } },
    { key: 'retries', kind: 'int', min: 1, max: 10, step: 1, default: 3, label: { vi: 'Số lần retry tối đa', en: 'Max retries' } },
    { key: 'baseMs', kind: 'number', min: 1, max: 10000, step: 10, unit: 'ms', default: 1000, label: { vi: 'Backoff base', en: 'Backoff base' } },
    { key: 'capMs', kind: 'number', min: 1, max: 120000, step: 100, unit: 'ms', default: 20000, label: { vi: 'Backoff cap (trần)', en: 'Backoff cap' } },
    { key: 'windowMs', kind: 'int', min: 1, max: 1000, step: 1, unit: 'ms', default: 50, label: { vi: 'Độ rộng cửa sổ đếm', en: 'Counting window' } },
    {
      key: 'capacityPerWindow',
      kind: 'int',
      min: 0,
      max: 100000,
      step: 1,
      default: 0,
      label: { vi: 'Capacity mỗi cửa sổ (0 = dependency vẫn sập)', en: 'Capacity per window (0 = dependency still down)' },
      help: {
        vi: 'Với giá trị lớn hơn 0, chỉ các call đầu tiên trong mỗi cửa sổ thành công; phần còn lại lỗi và retry.',
        en: 'Above 0, only the first calls in each window succeed; the rest fail and retry.',
      },
    },
    {
      key: 'yoursStrategy',
      kind: 'select',
      learnerOnly: true,
      default: 'full',
      options: JITTER_STRATEGIES.map((s) => ({ value: s, label: LABELS[s] })),
      label: { vi: 'Chiến lược mà code của bạn chạy', en: 'The strategy your code runs' },
    },
  ],
  learnerExercises: ['backoff'],
  run(p, seed, learner = []): SimResult<JitterWavesRow> {
    const runs = JITTER_STRATEGIES.map((s) => runStrategy(s, p, seed));
    const outcomes: LearnerOutcome[] = [];
    const labels: Record<string, { vi: string; en: string }> = { ...LABELS };
    for (const code of learner) {
      const id = learnerPolicyId(code.exercise);
      const label = learnerLabel({ vi: `${LABELS[p.yoursStrategy].vi} (backoff.ts)`, en: `${LABELS[p.yoursStrategy].en} (backoff.ts)` }, code.notPassing);
      const { outcome, result } = runLearner({ exercise: code.exercise, policy: id, label, notPassing: code.notPassing === true }, () =>
        runStrategy(p.yoursStrategy, p, seed, learnerDelays(code), id),
      );
      if (result) {
        const theirs = runs.find((r) => r.row.strategy === p.yoursStrategy)!.row.busiestWindow;
        outcome.comparison = compareBusiest(result.row.busiestWindow, theirs, LABELS[p.yoursStrategy]);
        runs.push(result);
        labels[id] = label;
      }
      outcomes.push(outcome);
    }
    const chart: XYChart = {
      id: 'arrivals',
      kind: 'step',
      title: { vi: 'Số retry mỗi cửa sổ', en: 'Retries per window' },
      x: { label: { vi: 'Thời gian sau lỗi', en: 'Time after the failure' }, unit: 'ms' },
      y: { label: { vi: 'Retry trong cửa sổ', en: 'Retries in the window' }, logOption: true },
      series: runs.map((r) => {
        const bins = countWindows(r.retryTimes, p.windowMs);
        return { id: r.row.strategy, label: labels[r.row.strategy]!, x: bins.map((_, i) => i * p.windowMs), y: bins };
      }),
    };
    const rows = runs.map((r) => r.row);
    const builtIn = rows.filter((r) => (JITTER_STRATEGIES as readonly string[]).includes(r.strategy));
    const best = builtIn.reduce((a, b) => (b.busiestWindow < a.busiestWindow ? b : a));
    return {
      rows,
      columns: [
        { key: 'strategy', label: { vi: 'Chiến lược', en: 'Strategy' } },
        { key: 'busiestWindow', label: { vi: 'Cửa sổ đông nhất', en: 'Busiest window' } },
        { key: 'totalCalls', label: { vi: 'Tổng số call', en: 'Total calls' } },
        { key: 'retries', label: { vi: 'Số retry', en: 'Retries' } },
        { key: 'succeededClients', label: { vi: 'Client thành công', en: 'Clients that succeeded' } },
        { key: 'lastCallMs', label: { vi: 'Call cuối cùng', en: 'Last call' }, unit: 'ms' },
      ],
      ...(outcomes.length ? { learner: outcomes } : {}),
      charts: [chart],
      summary: [
        { key: 'lowestPeak', label: { vi: 'Đỉnh thấp nhất', en: 'Lowest peak' }, value: best.strategy },
        {
          key: 'peakReduction',
          label: { vi: 'Đỉnh không jitter / đỉnh thấp nhất', en: 'No-jitter peak / lowest peak' },
          value: best.busiestWindow > 0 ? Math.round((rows[0]!.busiestWindow / best.busiestWindow) * 10) / 10 : null,
          unit: 'x',
        },
      ],
    };
  },
};
