/**
 * The hedging lab: a second request sent after a delay cuts tail latency when a share of requests
 * is slow, at the cost of extra load; plain and hedged runs side by side.
 */
import { round, substream } from './random.ts';
import { CHART_PERCENTILES, percentileSorted, sortInPlace } from './stats.ts';
import type { SimDefinition, SimResult, XYChart } from './types.ts';

export interface HedgingParams extends Record<string, number | boolean> {
  requests: number;
  slowSharePct: number;
  slowMs: number;
  minMs: number;
  maxMs: number;
  hedgeAfterPercentile: number;
  maxHedgePct: number;
  utilisation: number;
  adaptiveDelay: boolean;
}

export interface HedgingRow extends Record<string, string | number | null> {
  mode: 'plain' | 'hedged';
  p50: number;
  p99: number;
  p999: number;
  extraRequestsPct: number;
  utilisationPct: number;
}

/**
 * Pre-drawn randomness, shared by both modes and by every load level tried,
 * so the comparison is not blurred by different dice (common random numbers).
 */
interface Draws {
  primary: Float64Array;
  backup: Float64Array;
}

function draw(p: HedgingParams, seed: number): Draws {
  const rng = substream(seed, 'hedging');
  const one = (): number => (rng() < p.slowSharePct / 100 ? p.slowMs : p.minMs + rng() * (p.maxMs - p.minMs));
  const primary = new Float64Array(p.requests);
  const backup = new Float64Array(p.requests);
  for (let i = 0; i < p.requests; i++) {
    primary[i] = one();
    backup[i] = one();
  }
  return { primary, backup };
}

/** The hedge delay: a percentile of the normal (not slow) latency, uniform between min and max. */
export function hedgeDelayMs(p: HedgingParams): number {
  return p.minMs + (p.hedgeAfterPercentile / 100) * (p.maxMs - p.minMs);
}

/** Latency grows like 1 / (1 - utilisation) (an M/M/1 queue); 0 means "load has no effect". */
export function slowdown(utilisation: number): number {
  return 1 / (1 - Math.min(utilisation, MAX_UTILISATION));
}
export const MAX_UTILISATION = 0.99;

interface Outcome {
  latencies: Float64Array;
  hedges: number;
}

function play(d: Draws, p: HedgingParams, hedge: boolean, factor: number, sort = true): Outcome {
  const n = d.primary.length;
  const latencies = new Float64Array(n);
  // A fixed delay is tuned once on an idle system (gRPC's hedgingDelay is static); an adaptive one follows the load.
  const delay = hedgeDelayMs(p) * (p.adaptiveDelay ? factor : 1);
  const rate = p.maxHedgePct / 100;
  const tokenCap = Math.max(1, rate * 100);
  let tokens = tokenCap;
  let hedges = 0;
  for (let i = 0; i < n; i++) {
    const first = d.primary[i]! * factor;
    tokens = Math.min(tokenCap, tokens + rate);
    if (!hedge || first <= delay || tokens < 1) {
      latencies[i] = first;
      continue;
    }
    tokens -= 1;
    hedges++;
    // First answer wins; the other copy is cancelled.
    latencies[i] = Math.min(first, delay + d.backup[i]! * factor);
  }
  if (sort) sortInPlace(latencies);
  return { latencies, hedges };
}

/**
 * Find the utilisation the servers settle at: plain load times (1 + hedges per request),
 * where more load means slower answers, which means more hedges. Bisection on a monotone function.
 */
function settle(d: Draws, p: HedgingParams): { utilisation: number; outcome: Outcome; saturated: boolean } {
  const at = (u: number): Outcome => play(d, p, true, slowdown(u));
  if (p.utilisation === 0) return { utilisation: 0, outcome: at(0), saturated: false };
  const excess = (u: number): number => p.utilisation * (1 + play(d, p, true, slowdown(u), false).hedges / p.requests) - u;
  let lo = p.utilisation;
  let hi = MAX_UTILISATION;
  if (excess(hi) > 0) return { utilisation: MAX_UTILISATION, outcome: at(hi), saturated: true };
  for (let k = 0; k < 30 && hi - lo > 1e-4; k++) {
    const mid = (lo + hi) / 2;
    if (excess(mid) > 0) lo = mid;
    else hi = mid;
  }
  return { utilisation: hi, outcome: at(hi), saturated: false };
}

function row(mode: 'plain' | 'hedged', o: Outcome, n: number, utilisation: number): HedgingRow {
  return {
    mode,
    p50: round(percentileSorted(o.latencies, 50)),
    p99: round(percentileSorted(o.latencies, 99)),
    p999: round(percentileSorted(o.latencies, 99.9)),
    extraRequestsPct: round((o.hedges / n) * 100, 2),
    utilisationPct: round(utilisation * 100, 1),
  };
}

export const hedging: SimDefinition<HedgingParams, HedgingRow> = {
  name: 'hedging',
  title: { vi: 'Hedged request cắt tail latency', en: 'Hedged requests cut tail latency' },
  description: {
    vi: 'Một phần nhỏ request rơi vào replica chậm; gửi bản thứ hai sau một khoảng chờ và lấy kết quả đến trước. Khi hệ thống quá tải, hedge làm mọi thứ chậm hơn.',
    en: 'A small share of requests hits a slow replica; send a second copy after a delay and take whichever answers first. When the system is overloaded, hedging makes everything slower.',
  },
  learnerNote: {
    vi: 'Lab này không chạy được code hedged-fetch của bạn: hedgedFetch chạy đua các timer và promise thật cho từng request, còn lab là một mô hình tính sẵn 100.000 request, giải lại 30 lần để tìm utilisation cân bằng, không thể await một promise cho mỗi request; hedge budget của lab là một token bucket, không phải tỷ lệ từ lúc tạo như RatioHedgeBudget của bài tập.',
    en: 'This lab cannot run your hedged-fetch code: hedgedFetch races real timers and promises for each request, while the lab is a computed model of 100,000 requests, solved 30 times over to find the utilisation it settles at, which cannot await a promise per request; and its hedge budget is a token bucket, not the exercise’s RatioHedgeBudget ratio since creation.',
  },
  params: [
    { key: 'requests', kind: 'int', min: 1000, max: 1_000_000, step: 1000, default: 100_000, label: { vi: 'Số request', en: 'Requests' } },
    {
      key: 'slowSharePct',
      kind: 'number',
      min: 0,
      max: 50,
      step: 0.1,
      unit: '%',
      default: 2,
      label: { vi: 'Tỷ lệ request vào replica chậm', en: 'Share of requests on a slow replica' },
    },
    {
      key: 'slowMs',
      kind: 'number',
      min: 1,
      max: 10000,
      step: 10,
      unit: 'ms',
      default: 1000,
      label: { vi: 'Latency của replica chậm', en: 'Slow replica latency' },
    },
    {
      key: 'minMs',
      kind: 'number',
      min: 0,
      max: 1000,
      step: 1,
      unit: 'ms',
      default: 20,
      label: { vi: 'Latency bình thường: nhỏ nhất', en: 'Normal latency: minimum' },
    },
    {
      key: 'maxMs',
      kind: 'number',
      min: 1,
      max: 2000,
      step: 1,
      unit: 'ms',
      default: 60,
      label: { vi: 'Latency bình thường: lớn nhất', en: 'Normal latency: maximum' },
    },
    {
      key: 'hedgeAfterPercentile',
      kind: 'number',
      min: 0,
      max: 100,
      step: 0.5,
      default: 95,
      label: { vi: 'Hedge sau percentile này của latency bình thường', en: 'Hedge after this percentile of normal latency' },
    },
    {
      key: 'maxHedgePct',
      kind: 'number',
      min: 0,
      max: 100,
      step: 0.5,
      unit: '%',
      default: 100,
      label: { vi: 'Giới hạn hedge (% request)', en: 'Hedge limit (% of requests)' },
      help: {
        vi: 'Token bucket: mỗi request nạp một phần token, mỗi hedge tiêu 1 token.',
        en: 'Token bucket: each request adds a fraction of a token, each hedge spends one.',
      },
    },
    {
      key: 'utilisation',
      kind: 'number',
      min: 0,
      max: 0.95,
      step: 0.05,
      default: 0,
      label: { vi: 'Utilisation do traffic thường (0 = tải không ảnh hưởng latency)', en: 'Utilisation from plain traffic (0 = load does not affect latency)' },
      help: {
        vi: 'Latency nhân với 1 / (1 − utilisation); mỗi hedge thêm tải bằng một request.',
        en: 'Latency is multiplied by 1 / (1 − utilisation); each hedge adds one request of load.',
      },
    },
    {
      key: 'adaptiveDelay',
      kind: 'boolean',
      default: false,
      label: { vi: 'Hedge delay chạy theo latency hiện tại', en: 'Hedge delay follows current latency' },
      help: {
        vi: 'Tắt: delay cố định, đo khi hệ thống rảnh. Bật: delay là percentile của latency đang đo được.',
        en: 'Off: a fixed delay measured on an idle system. On: the delay is the percentile of the latency measured now.',
      },
    },
  ],
  check: (p) => (p.maxMs < p.minMs ? { vi: 'maxMs phải lớn hơn hoặc bằng minMs.', en: 'maxMs must be at least minMs.' } : null),
  run(p, seed): SimResult<HedgingRow> {
    const d = draw(p, seed);
    const plain = play(d, p, false, slowdown(p.utilisation));
    const hedged = settle(d, p);
    const rows = [row('plain', plain, p.requests, p.utilisation), row('hedged', hedged.outcome, p.requests, hedged.utilisation)];
    const chart: XYChart = {
      id: 'percentiles',
      kind: 'line',
      title: { vi: 'Latency theo percentile', en: 'Latency by percentile' },
      x: { label: { vi: 'Percentile', en: 'Percentile' } },
      y: { label: { vi: 'Latency', en: 'Latency' }, unit: 'ms', log: true },
      series: [
        {
          id: 'plain',
          label: { vi: 'Không hedge', en: 'Plain' },
          x: [...CHART_PERCENTILES],
          y: CHART_PERCENTILES.map((q) => round(percentileSorted(plain.latencies, q))),
        },
        {
          id: 'hedged',
          label: { vi: 'Có hedge', en: 'Hedged' },
          x: [...CHART_PERCENTILES],
          y: CHART_PERCENTILES.map((q) => round(percentileSorted(hedged.outcome.latencies, q))),
        },
      ],
    };
    return {
      rows,
      columns: [
        { key: 'mode', label: { vi: 'Chế độ', en: 'Mode' } },
        { key: 'p50', label: { vi: 'p50', en: 'p50' }, unit: 'ms' },
        { key: 'p99', label: { vi: 'p99', en: 'p99' }, unit: 'ms' },
        { key: 'p999', label: { vi: 'p99.9', en: 'p99.9' }, unit: 'ms' },
        { key: 'extraRequestsPct', label: { vi: 'Request thêm', en: 'Extra requests' }, unit: '%' },
        { key: 'utilisationPct', label: { vi: 'Utilisation', en: 'Utilisation' }, unit: '%' },
      ],
      charts: [chart],
      summary: [
        { key: 'hedgeDelayMs', label: { vi: 'Hedge sau', en: 'Hedge after' }, value: round(hedgeDelayMs(p)), unit: 'ms' },
        { key: 'p99Ratio', label: { vi: 'p99 không hedge / có hedge', en: 'p99 plain / hedged' }, value: round(rows[0]!.p99 / rows[1]!.p99, 1), unit: 'x' },
        { key: 'saturated', label: { vi: 'Quá tải (utilisation chạm trần 99%)', en: 'Overloaded (utilisation hit the 99% ceiling)' }, value: hedged.saturated },
      ],
    };
  },
};
