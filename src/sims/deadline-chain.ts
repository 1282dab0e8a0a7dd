/**
 * The deadline-chain lab: a gateway calling A, B and C with nested timeouts and retries, with and
 * without a propagated deadline, to show work that goes on after its caller has given up.
 */
import { round, substream, type Rng } from './random.ts';
import type { GanttChart, SimDefinition, SimResult } from './types.ts';

export interface DeadlineChainParams extends Record<string, number> {
  gatewayTimeoutMs: number;
  abTimeoutMs: number;
  abRetries: number;
  bcTimeoutMs: number;
  bcRetries: number;
  cWorkMs: number;
  marginMs: number;
  minBudgetMs: number;
  hopLatencyMs: number;
  hopJitterMs: number;
}

export type ChainMode = 'bad' | 'good';
export type Hop = 'gateway→A' | 'A→B' | 'B→C';
export type CallOutcome = 'ok' | 'error' | 'timeout' | 'cancelled';

/** One call as its caller saw it, plus when the callee stopped working on it. */
export interface CallRecord {
  id: number;
  parent: number | null;
  hop: Hop;
  attempt: number;
  startMs: number;
  endMs: number;
  outcome: CallOutcome;
  /** When the callee stopped working on this call (it may go on long after the caller gave up). */
  calleeEndMs: number;
  /** Remaining time passed down (good mode), null when no deadline is propagated. */
  deadlineMs: number | null;
}

export interface DeadlineChainRow extends Record<string, string | number | null> {
  mode: ChainMode;
  callsToC: number;
  workAtCMs: number;
  userLatencyMs: number;
  userOutcome: 'ok' | 'timeout' | 'deadline-exceeded';
  cStoppedEarly: number;
  lastWorkEndsMs: number;
}

export interface ChainRun {
  row: DeadlineChainRow;
  timeline: CallRecord[];
}

/** What a callee did with a request: when it answered (null: it never did, its caller had gone). */
interface Served {
  respondAt: number | null;
  ok: boolean;
  doneAt: number;
}

const HOPS: Hop[] = ['gateway→A', 'A→B', 'B→C'];

export function runChain(mode: ChainMode, p: DeadlineChainParams, seed: number): ChainRun {
  const rng: Rng = substream(seed, `deadline-chain/${mode}`);
  const good = mode === 'good';
  const net = (): number => p.hopLatencyMs + rng() * p.hopJitterMs;
  const timeline: CallRecord[] = [];
  let callsToC = 0;
  let workAtC = 0;
  let stoppedEarly = 0;
  let lastWorkEnds = 0;

  // C works for cWorkMs. In bad mode it never stops; in good mode it stops at its deadline or when its caller goes away.
  const serveC = (arrive: number, deadline: number | null, cancelAt: number): Served => {
    callsToC++;
    const finish = arrive + p.cWorkMs;
    const end = good ? Math.min(finish, cancelAt, deadline ?? Infinity) : finish;
    workAtC += end - arrive;
    lastWorkEnds = Math.max(lastWorkEnds, end);
    if (end < finish) stoppedEarly++;
    const answered = end === finish || end < cancelAt;
    return { respondAt: answered ? end : null, ok: end === finish, doneAt: end };
  };

  // A service at `level` (1 = A, 2 = B) calling the next one down with its own timeout and retries.
  const serve = (level: 1 | 2, arrive: number, deadline: number | null, cancelAt: number, parent: number): Served => {
    const ownTimeout = level === 1 ? p.abTimeoutMs : p.bcTimeoutMs;
    const attempts = good ? 1 : 1 + (level === 1 ? p.abRetries : p.bcRetries);
    let t = arrive;
    for (let attempt = 0; attempt < attempts; attempt++) {
      if (t >= cancelAt) return { respondAt: null, ok: false, doneAt: cancelAt };
      let timeout = ownTimeout;
      let budget: number | null = null;
      if (good && deadline !== null) {
        budget = Math.floor(deadline - t - p.marginMs);
        if (budget < p.minBudgetMs) return { respondAt: t, ok: false, doneAt: t }; // no time: don't start work we can't finish
        timeout = Math.min(ownTimeout, budget);
      }
      const giveUpAt = Math.min(t + timeout, cancelAt);
      const there = net();
      const childArrive = t + there;
      const childCancel = good ? giveUpAt + there : Infinity;
      const childDeadline = budget === null ? null : childArrive + budget;
      const id = timeline.length;
      timeline.push({ id, parent, hop: HOPS[level]!, attempt, startMs: t, endMs: 0, outcome: 'ok', calleeEndMs: 0, deadlineMs: budget });
      const res = level === 1 ? serve(2, childArrive, childDeadline, childCancel, id) : serveC(childArrive, childDeadline, childCancel);
      const record = timeline[id]!;
      record.calleeEndMs = res.doneAt;
      const back = res.respondAt === null ? Infinity : res.respondAt + net();
      if (back <= giveUpAt) {
        record.endMs = back;
        record.outcome = res.ok ? 'ok' : 'error';
        if (res.ok) return { respondAt: back, ok: true, doneAt: back };
        t = back;
        continue;
      }
      record.endMs = giveUpAt;
      record.outcome = giveUpAt < t + timeout ? 'cancelled' : 'timeout';
      if (record.outcome === 'cancelled') return { respondAt: null, ok: false, doneAt: giveUpAt };
      t = giveUpAt;
    }
    return { respondAt: t, ok: false, doneAt: t };
  };

  // The gateway gives the user's request gatewayTimeoutMs and, in good mode, passes that budget down.
  const there = net();
  timeline.push({
    id: 0,
    parent: null,
    hop: 'gateway→A',
    attempt: 0,
    startMs: 0,
    endMs: 0,
    outcome: 'ok',
    calleeEndMs: 0,
    deadlineMs: good ? p.gatewayTimeoutMs : null,
  });
  const giveUp = p.gatewayTimeoutMs;
  const a = serve(1, there, good ? there + p.gatewayTimeoutMs : null, good ? giveUp + there : Infinity, 0);
  const back = a.respondAt === null ? Infinity : a.respondAt + net();
  const root = timeline[0]!;
  root.calleeEndMs = a.doneAt;
  if (back <= giveUp) {
    root.endMs = back;
    root.outcome = a.ok ? 'ok' : 'error';
  } else {
    root.endMs = giveUp;
    root.outcome = 'timeout';
  }
  const userOutcome = root.outcome === 'ok' ? 'ok' : root.outcome === 'timeout' ? 'timeout' : 'deadline-exceeded';
  return {
    row: {
      mode,
      callsToC,
      workAtCMs: Math.round(workAtC),
      userLatencyMs: Math.round(root.endMs),
      userOutcome,
      cStoppedEarly: stoppedEarly,
      lastWorkEndsMs: Math.round(lastWorkEnds),
    },
    timeline: timeline.map((r) => ({ ...r, startMs: round(r.startMs), endMs: round(r.endMs), calleeEndMs: round(r.calleeEndMs) })),
  };
}

function gantt(mode: ChainMode, run: ChainRun, p: DeadlineChainParams): GanttChart {
  const lanes = [...HOPS, 'C'] as const;
  return {
    id: `timeline-${mode}`,
    kind: 'gantt',
    title:
      mode === 'bad'
        ? { vi: 'Cấu hình sai: timeout lồng nhau và retry ở mọi tầng', en: 'Bad: nested timeouts and retries at every layer' }
        : { vi: 'Cấu hình đúng: deadline propagation', en: 'Good: deadline propagation' },
    x: { label: { vi: 'Thời gian', en: 'Time' }, unit: 'ms' },
    lanes: lanes.map((id) => ({ id, label: id === 'C' ? { vi: 'C đang làm việc', en: 'C working' } : { vi: id, en: id } })),
    bars: [
      ...run.timeline.map((r) => ({ lane: r.hop, start: r.startMs, end: r.endMs, outcome: r.outcome, label: `#${r.attempt + 1}` })),
      ...run.timeline
        .filter((r) => r.hop === 'B→C')
        .map((r) => ({ lane: 'C', start: r.startMs, end: r.calleeEndMs, outcome: r.calleeEndMs - r.startMs < p.cWorkMs ? 'stopped' : 'completed' })),
    ],
    markers: [{ x: p.gatewayTimeoutMs, label: { vi: 'Gateway hết kiên nhẫn', en: 'Gateway gives up' } }],
  };
}

export const deadlineChain: SimDefinition<DeadlineChainParams, DeadlineChainRow, { bad: CallRecord[]; good: CallRecord[] }> = {
  name: 'deadline-chain',
  title: { vi: 'Timeout lồng nhau và deadline propagation', en: 'Nested timeouts and deadline propagation' },
  description: {
    vi: 'Gateway → A → B → C. Cấu hình sai: mỗi tầng có timeout riêng và retry, C không bao giờ dừng. Cấu hình đúng: truyền thời gian còn lại, không retry ở tầng giữa, C dừng khi caller bỏ đi.',
    en: 'Gateway → A → B → C. Bad: every layer has its own timeout and retries, and C never stops. Good: the remaining time is passed down, no retries in the middle, and C stops when its caller goes away.',
  },
  params: [
    {
      key: 'gatewayTimeoutMs',
      kind: 'number',
      min: 10,
      max: 10000,
      step: 10,
      unit: 'ms',
      default: 300,
      label: { vi: 'Timeout của gateway (budget của user)', en: 'Gateway timeout (the user’s budget)' },
    },
    { key: 'abTimeoutMs', kind: 'number', min: 10, max: 10000, step: 10, unit: 'ms', default: 500, label: { vi: 'Timeout A → B', en: 'A → B timeout' } },
    { key: 'abRetries', kind: 'int', min: 0, max: 5, step: 1, default: 2, label: { vi: 'Số retry A → B (cấu hình sai)', en: 'A → B retries (bad mode)' } },
    { key: 'bcTimeoutMs', kind: 'number', min: 10, max: 10000, step: 10, unit: 'ms', default: 1000, label: { vi: 'Timeout B → C', en: 'B → C timeout' } },
    { key: 'bcRetries', kind: 'int', min: 0, max: 5, step: 1, default: 3, label: { vi: 'Số retry B → C (cấu hình sai)', en: 'B → C retries (bad mode)' } },
    { key: 'cWorkMs', kind: 'number', min: 1, max: 20000, step: 10, unit: 'ms', default: 2000, label: { vi: 'Thời gian C làm việc', en: 'C’s work time' } },
    {
      key: 'marginMs',
      kind: 'number',
      min: 0,
      max: 200,
      step: 1,
      unit: 'ms',
      default: 20,
      label: { vi: 'Biên trừ ở mỗi hop (cấu hình đúng)', en: 'Margin subtracted per hop (good mode)' },
    },
    {
      key: 'minBudgetMs',
      kind: 'number',
      min: 0,
      max: 1000,
      step: 1,
      unit: 'ms',
      default: 50,
      label: { vi: 'Không bắt đầu nếu còn ít hơn', en: 'Do not start with less than' },
    },
    {
      key: 'hopLatencyMs',
      kind: 'number',
      min: 0,
      max: 100,
      step: 0.5,
      unit: 'ms',
      default: 1,
      label: { vi: 'Network latency mỗi chiều', en: 'Network latency each way' },
    },
    {
      key: 'hopJitterMs',
      kind: 'number',
      min: 0,
      max: 100,
      step: 0.5,
      unit: 'ms',
      default: 1,
      label: { vi: 'Độ dao động network latency', en: 'Network latency jitter' },
    },
  ],
  run(p, seed): SimResult<DeadlineChainRow, { bad: CallRecord[]; good: CallRecord[] }> {
    const bad = runChain('bad', p, seed);
    const good = runChain('good', p, seed);
    return {
      rows: [bad.row, good.row],
      columns: [
        { key: 'mode', label: { vi: 'Cấu hình', en: 'Configuration' } },
        { key: 'callsToC', label: { vi: 'Số call tới C', en: 'Calls reaching C' } },
        { key: 'workAtCMs', label: { vi: 'Công việc ở C', en: 'Work done at C' }, unit: 'ms' },
        { key: 'userLatencyMs', label: { vi: 'User nhận kết quả sau', en: 'User got an answer after' }, unit: 'ms' },
        { key: 'userOutcome', label: { vi: 'User thấy', en: 'User saw' } },
        { key: 'cStoppedEarly', label: { vi: 'C dừng sớm', en: 'C stopped early' } },
        { key: 'lastWorkEndsMs', label: { vi: 'C làm việc tới', en: 'C busy until' }, unit: 'ms' },
      ],
      charts: [gantt('bad', bad, p), gantt('good', good, p)],
      summary: [
        {
          key: 'wastedWorkRatio',
          label: { vi: 'Công việc ở C: sai / đúng', en: 'Work at C: bad / good' },
          value: good.row.workAtCMs > 0 ? round(bad.row.workAtCMs / good.row.workAtCMs, 1) : null,
          unit: 'x',
        },
      ],
      data: { bad: bad.timeline, good: good.timeline },
    };
  },
};
