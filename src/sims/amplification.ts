/**
 * The amplification lab: retries at every layer of a call chain multiply the calls that reach the
 * bottom. Exact expectations, no randomness, so the numbers can be checked by hand.
 */
import { round } from './random.ts';
import type { SimDefinition, SimResult } from './types.ts';

export interface AmplificationParams extends Record<string, number> {
  layers: number;
  attemptsPerLayer: number;
  failurePct: number;
}

export interface AmplificationRow extends Record<string, string | number | null> {
  layers: number;
  worstCaseCalls: number;
  expectedCalls: number;
  oneLayerRetryingCalls: number;
  userFailurePct: number;
}

/**
 * Each layer makes up to `attempts` calls to the layer below, stopping at the first success.
 * The bottom fails each call independently with probability q. For a call at depth d:
 *   q_d = q_{d-1}^k (it fails only if all k attempts below fail),
 *   calls_d = calls_{d-1} * (1 + q_{d-1} + ... + q_{d-1}^{k-1}) (expected attempts until a success).
 * Exact expectations; no randomness. With q = 1 (the bottom is down) calls_d = k^d.
 */
export function amplify(layers: number, attempts: number, q: number): { calls: number; failure: number }[] {
  const out: { calls: number; failure: number }[] = [];
  let calls = 1;
  let fail = q;
  for (let d = 1; d <= layers; d++) {
    let tries = 0;
    for (let i = 0; i < attempts; i++) tries += fail ** i;
    calls *= tries;
    fail = fail ** attempts;
    out.push({ calls, failure: fail });
  }
  return out;
}

export const amplification: SimDefinition<AmplificationParams, AmplificationRow> = {
  name: 'amplification',
  title: { vi: 'Retry ở nhiều tầng nhân số call', en: 'Retries at several layers multiply calls' },
  description: {
    vi: 'Mỗi tầng thử lại tầng dưới; số call tới tầng dưới cùng tăng theo cấp số nhân với số tầng.',
    en: 'Each layer retries the one below; the calls reaching the bottom grow exponentially with the number of layers.',
  },
  params: [
    { key: 'layers', kind: 'int', min: 1, max: 10, step: 1, default: 5, label: { vi: 'Số tầng retry', en: 'Retrying layers' } },
    {
      key: 'attemptsPerLayer',
      kind: 'int',
      min: 1,
      max: 10,
      step: 1,
      default: 3,
      label: { vi: 'Số lần thử mỗi tầng (gồm lần đầu)', en: 'Attempts per layer (including the first)' },
    },
    {
      key: 'failurePct',
      kind: 'number',
      min: 0,
      max: 100,
      step: 1,
      unit: '%',
      default: 100,
      label: { vi: 'Tỷ lệ lỗi ở tầng dưới cùng (100% = sập hẳn)', en: 'Failure rate at the bottom (100% = down)' },
    },
  ],
  run(p): SimResult<AmplificationRow> {
    const q = p.failurePct / 100;
    const levels = amplify(p.layers, p.attemptsPerLayer, q);
    const rows = levels.map(
      (l, i): AmplificationRow => ({
        layers: i + 1,
        worstCaseCalls: p.attemptsPerLayer ** (i + 1),
        expectedCalls: round(l.calls, 2),
        oneLayerRetryingCalls: round(amplify(1, p.attemptsPerLayer, q)[0]!.calls, 2),
        userFailurePct: round(l.failure * 100, 4),
      }),
    );
    const x = rows.map((r) => r.layers);
    return {
      rows,
      columns: [
        { key: 'layers', label: { vi: 'Số tầng', en: 'Layers' } },
        { key: 'worstCaseCalls', label: { vi: 'Call tới đáy (tệ nhất)', en: 'Calls at the bottom (worst case)' } },
        { key: 'expectedCalls', label: { vi: 'Call tới đáy (kỳ vọng)', en: 'Calls at the bottom (expected)' } },
        { key: 'oneLayerRetryingCalls', label: { vi: 'Nếu chỉ một tầng retry', en: 'If only one layer retries' } },
        { key: 'userFailurePct', label: { vi: 'User thấy lỗi', en: 'User sees a failure' }, unit: '%' },
      ],
      charts: [
        {
          id: 'calls',
          kind: 'bar',
          title: { vi: 'Call tới tầng dưới cùng cho mỗi request của user', en: 'Calls at the bottom per user request' },
          x: { label: { vi: 'Số tầng retry', en: 'Retrying layers' } },
          y: { label: { vi: 'Call', en: 'Calls' }, log: true },
          series: [
            { id: 'every-layer', label: { vi: 'Mọi tầng đều retry', en: 'Every layer retries' }, x, y: rows.map((r) => r.expectedCalls) },
            { id: 'one-layer', label: { vi: 'Chỉ một tầng retry', en: 'One layer retries' }, x, y: rows.map((r) => r.oneLayerRetryingCalls) },
          ],
        },
      ],
      summary: [
        { key: 'bottomCalls', label: { vi: 'Call tới đáy với mọi tầng', en: 'Calls at the bottom, all layers' }, value: rows[rows.length - 1]!.expectedCalls },
      ],
    };
  },
};
