/**
 * The timeout-choice lab: choosing a timeout from a latency distribution with a heavy tail, by the
 * false-timeout rate one accepts plus padding.
 */
import { learnerFunction, learnerLabel, learnerNumber, learnerPolicyId, runLearner, type LearnerOutcome } from './learner.ts';
import { normalSource, pareto, round, substream } from './random.ts';
import { percentileSorted, shareAbove, sortInPlace } from './stats.ts';
import type { SimDefinition, SimResult } from './types.ts';

export interface TimeoutChoiceParams extends Record<string, number> {
  samples: number;
  medianMs: number;
  spread: number;
  tailSharePct: number;
  tailStartMs: number;
  tailAlpha: number;
  timeoutMs: number;
  targetFalseTimeoutPct: number;
  paddingPct: number;
}

export interface TimeoutChoiceRow extends Record<string, string | number | null> {
  percentile: string;
  latencyMs: number;
  falseTimeoutPct: number;
}

export const REPORTED_PERCENTILES = [50, 90, 95, 99, 99.9, 99.99] as const;

/** Body: lognormal(median, spread). Tail: with probability tailShare, a Pareto(tailStart, alpha) latency instead. */
export function sampleLatencies(p: TimeoutChoiceParams, seed: number): Float64Array {
  const rng = substream(seed, 'timeout-choice');
  const out = new Float64Array(p.samples);
  const tail = p.tailSharePct / 100;
  const gauss = normalSource(rng);
  for (let i = 0; i < p.samples; i++) {
    out[i] = rng() < tail ? pareto(rng, p.tailStartMs, p.tailAlpha) : p.medianMs * Math.exp(p.spread * gauss());
  }
  sortInPlace(out);
  return out;
}

export const timeoutChoice: SimDefinition<TimeoutChoiceParams, TimeoutChoiceRow> = {
  name: 'timeout-choice',
  title: { vi: 'Chọn timeout từ phân phối latency', en: 'Choosing a timeout from the latency distribution' },
  description: {
    vi: 'Chọn tỷ lệ false timeout chấp nhận được, đọc percentile tương ứng của latency, rồi cộng thêm biên.',
    en: 'Pick an acceptable false-timeout rate, read the matching latency percentile, then add padding.',
  },
  params: [
    { key: 'samples', kind: 'int', min: 1000, max: 1_000_000, step: 1000, default: 100_000, label: { vi: 'Số mẫu latency', en: 'Latency samples' } },
    { key: 'medianMs', kind: 'number', min: 1, max: 5000, step: 1, unit: 'ms', default: 40, label: { vi: 'Median của phần thân', en: 'Median of the body' } },
    {
      key: 'spread',
      kind: 'number',
      min: 0.05,
      max: 2,
      step: 0.05,
      default: 0.4,
      label: { vi: 'Độ trải của phần thân (sigma lognormal)', en: 'Spread of the body (lognormal sigma)' },
    },
    {
      key: 'tailSharePct',
      kind: 'number',
      min: 0,
      max: 20,
      step: 0.1,
      unit: '%',
      default: 1,
      label: { vi: 'Tỷ lệ request ở heavy tail', en: 'Share of requests in the heavy tail' },
    },
    { key: 'tailStartMs', kind: 'number', min: 1, max: 10000, step: 10, unit: 'ms', default: 200, label: { vi: 'Tail bắt đầu từ', en: 'Tail starts at' } },
    {
      key: 'tailAlpha',
      kind: 'number',
      min: 0.5,
      max: 5,
      step: 0.1,
      default: 1.5,
      label: { vi: 'Độ nặng của tail (alpha Pareto, nhỏ = nặng)', en: 'Tail heaviness (Pareto alpha, smaller = heavier)' },
    },
    {
      key: 'timeoutMs',
      kind: 'number',
      min: 1,
      max: 60000,
      step: 10,
      unit: 'ms',
      default: 250,
      label: { vi: 'Timeout đang xét', en: 'Timeout under consideration' },
    },
    {
      key: 'targetFalseTimeoutPct',
      kind: 'number',
      min: 0.001,
      max: 50,
      step: 0.01,
      unit: '%',
      default: 0.1,
      label: { vi: 'Tỷ lệ false timeout chấp nhận được', en: 'Acceptable false-timeout rate' },
    },
    { key: 'paddingPct', kind: 'number', min: 0, max: 200, step: 5, unit: '%', default: 0, label: { vi: 'Biên cộng thêm', en: 'Padding' } },
  ],
  learnerExercises: ['timeout-choice'],
  run(p, seed, learner = []): SimResult<TimeoutChoiceRow> {
    const sorted = sampleLatencies(p, seed);
    const rows = REPORTED_PERCENTILES.map((q): TimeoutChoiceRow => {
      const v = percentileSorted(sorted, q);
      return { percentile: `p${q}`, latencyMs: round(v), falseTimeoutPct: round(shareAbove(sorted, v) * 100, 3) };
    });
    const falseRate = shareAbove(sorted, p.timeoutMs) * 100;
    const forTarget = percentileSorted(sorted, 100 - p.targetFalseTimeoutPct);
    const padded = forTarget * (1 + p.paddingPct / 100);
    // Round timeouts up, never down: a rounded-down timeout would cut more requests than the target allows.
    const up = (ms: number): number => Math.ceil(ms * 10) / 10;
    // The learner's timeoutFor (the timeout-choice exercise) on the same samples and target: it rounds
    // up to a whole millisecond, the lab to a tenth.
    const outcomes: LearnerOutcome[] = [];
    const learnerFigures: SimResult['summary'] = [];
    const learnerMarkers: { x: number; label: { vi: string; en: string } }[] = [];
    for (const code of learner) {
      const label = learnerLabel({ vi: 'timeoutFor', en: 'timeoutFor' }, code.notPassing);
      const { outcome, result } = runLearner(
        { exercise: code.exercise, policy: learnerPolicyId(code.exercise), label, notPassing: code.notPassing === true },
        () => {
          const timeoutFor = learnerFunction<(samples: readonly number[], opts: { falseTimeoutRate: number }) => unknown>(code, 'timeoutFor');
          return learnerNumber('timeoutFor', timeoutFor(Array.from(sorted), { falseTimeoutRate: p.targetFalseTimeoutPct / 100 }));
        },
      );
      if (result !== undefined) {
        const lab = up(forTarget);
        const cut = round(shareAbove(sorted, result) * 100, 3);
        outcome.comparison =
          result === Math.ceil(lab)
            ? {
                vi: `timeoutFor của bạn cho ${result} ms: đúng mẫu mà lab chọn (${lab} ms), làm tròn lên tới mili giây; ${cut}% request lành bị cắt.`,
                en: `Your timeoutFor gives ${result} ms: the sample the lab picks (${lab} ms), rounded up to a whole millisecond; it cuts ${cut}% of healthy calls.`,
              }
            : {
                vi: `timeoutFor của bạn cho ${result} ms, lab cho ${lab} ms; với timeout của bạn ${cut}% request lành bị cắt, mục tiêu là ${p.targetFalseTimeoutPct}%.`,
                en: `Your timeoutFor gives ${result} ms, the lab ${lab} ms; your timeout cuts ${cut}% of healthy calls, against a target of ${p.targetFalseTimeoutPct}%.`,
              };
        learnerFigures.push(
          { key: 'yoursTimeoutMs', label, value: result, unit: 'ms' },
          { key: 'yoursFalseTimeoutPct', label: { vi: 'False timeout với timeout của bạn', en: 'False timeouts with your timeout' }, value: cut, unit: '%' },
        );
        learnerMarkers.push({ x: result, label });
      }
      outcomes.push(outcome);
    }
    const cdfX: number[] = [];
    const cdfY: number[] = [];
    const steps = 200;
    for (let i = 1; i <= steps; i++) {
      const q = 100 * (1 - 10 ** (-4 * (i / steps))); // denser towards the tail: up to p99.99
      cdfX.push(round(percentileSorted(sorted, q)));
      cdfY.push(round(q, 4));
    }
    return {
      rows,
      columns: [
        { key: 'percentile', label: { vi: 'Percentile', en: 'Percentile' } },
        { key: 'latencyMs', label: { vi: 'Latency', en: 'Latency' }, unit: 'ms' },
        { key: 'falseTimeoutPct', label: { vi: 'False timeout nếu đặt timeout ở đây', en: 'False timeouts with this as the timeout' }, unit: '%' },
      ],
      charts: [
        {
          id: 'cdf',
          kind: 'line',
          title: { vi: 'Phân phối latency (CDF)', en: 'Latency distribution (CDF)' },
          x: { label: { vi: 'Latency', en: 'Latency' }, unit: 'ms', log: true },
          y: { label: { vi: 'Request xong trong thời gian này', en: 'Requests done within this time' }, unit: '%' },
          series: [{ id: 'cdf', label: { vi: 'CDF', en: 'CDF' }, x: cdfX, y: cdfY }],
          markers: [
            { x: p.timeoutMs, label: { vi: 'Timeout đang xét', en: 'Timeout under consideration' } },
            { x: up(padded), label: { vi: 'Timeout đề xuất', en: 'Suggested timeout' } },
            ...learnerMarkers,
          ],
        },
      ],
      summary: [
        {
          key: 'falseTimeoutPct',
          label: { vi: 'False timeout với timeout đang xét', en: 'False timeouts with the chosen timeout' },
          value: round(falseRate, 3),
          unit: '%',
        },
        { key: 'timeoutForTargetMs', label: { vi: 'Timeout cho tỷ lệ mục tiêu', en: 'Timeout for the target rate' }, value: up(forTarget), unit: 'ms' },
        { key: 'suggestedTimeoutMs', label: { vi: 'Timeout đề xuất (đã cộng biên)', en: 'Suggested timeout (with padding)' }, value: up(padded), unit: 'ms' },
        ...learnerFigures,
      ],
      ...(outcomes.length ? { learner: outcomes } : {}),
    };
  },
};
