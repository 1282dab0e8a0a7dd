/**
 * The reconnect-storm lab: long-lived clients reconnecting when a server restarts or is deployed,
 * with and without backoff, jitter and draining (or the learner's backoff).
 */
import { learnerFunction, learnerLabel, learnerNumber, learnerPolicyId, runLearner, seconds, type LearnerCode, type LearnerOutcome } from './learner.ts';
import { substream, type Rng } from './random.ts';
import { Schedule, stochasticRound, TICK_MS, ticks } from './tick-model.ts';
import type { Marker, SimDefinition, SimResult, Text, XYChart } from './types.ts';

/** One tick of the model: a failed handshake is known, and a retry "at once" sent, one tick later. */
export const RECONNECT_TICK_MS = TICK_MS;
const TICKS_PER_S = 1000 / RECONNECT_TICK_MS;

export type ReconnectPolicyId = 'no-backoff' | 'exp-backoff' | 'full-jitter' | 'drain-no-backoff' | 'drain-full-jitter';
export type DeployMode = 'one' | 'rolling';

export interface ReconnectParams extends Record<string, number | string | boolean> {
  clients: number;
  instances: number;
  acceptPerS: number;
  restartS: number;
  deploy: DeployMode;
  backoffBaseMs: number;
  backoffCapMs: number;
  drainS: number;
  observeS: number;
  reconnectAtOnce: boolean;
  refusedCostPct: number;
}

export interface ReconnectRow extends Record<string, string | number | null> {
  /** A built-in policy, or `yours-backoff` for the learner's code. */
  policy: ReconnectPolicyId | string;
  peakAttemptsPerS: number;
  peakLoad: number;
  failedHandshakes: number;
  reconnectedAfterMs: number | null;
  maxDisconnected: number;
  offlineClientS: number;
}

export interface ReconnectPolicy {
  id: ReconnectPolicyId | string;
  label: Text;
  /** The server sends GOAWAY to its connections over `drainS` before it stops (and takes no new ones meanwhile). */
  drain: boolean;
  /** The wait before the next attempt after `failures` failures in a row (1 for the first), in ms. */
  delayMs(failures: number, rng: Rng): number;
  /** Draws each client's delay (one `rng()` per delay); without jitter, clients that fail together wait alike. */
  jittered: boolean;
  /** For the built-in full jitter: the ceiling its delay is drawn under (delayMs is rng() times it). */
  fullJitterCeilingMs?(failures: number): number;
  /** The random stream it draws from (the learner's policy draws the stream of the built-in it stands beside). */
  stream?: string;
}

const roundTicks = (s: number): number => Math.round(s * TICKS_PER_S);

/** Exponential backoff without jitter: min(cap, base * 2^(failures - 1)), the backoff exercise's exponentialDelay. */
const exponential = (p: ReconnectParams) => (failures: number) => Math.min(p.backoffCapMs, p.backoffBaseMs * 2 ** (failures - 1));
/** Full jitter: random() * min(cap, base * 2^(failures - 1)), one draw per delay, as the backoff exercise's fullJitterDelay. */
const fullJitter = (p: ReconnectParams) => {
  const ceiling = exponential(p);
  return (failures: number, rng: Rng) => rng() * ceiling(failures);
};

export function reconnectPolicies(p: ReconnectParams): ReconnectPolicy[] {
  const atOnce = () => 0;
  return [
    { id: 'no-backoff', label: { vi: 'Reconnect ngay, không backoff', en: 'Reconnect at once, no backoff' }, drain: false, delayMs: atOnce, jittered: false },
    {
      id: 'exp-backoff',
      label: { vi: 'Exponential backoff không jitter', en: 'Exponential backoff, no jitter' },
      drain: false,
      delayMs: exponential(p),
      jittered: false,
    },
    {
      id: 'full-jitter',
      label: { vi: 'Backoff + full jitter', en: 'Backoff + full jitter' },
      drain: false,
      delayMs: fullJitter(p),
      jittered: true,
      fullJitterCeilingMs: exponential(p),
    },
    { id: 'drain-no-backoff', label: { vi: 'Server drain + không backoff', en: 'Server drains + no backoff' }, drain: true, delayMs: atOnce, jittered: false },
    {
      id: 'drain-full-jitter',
      label: { vi: 'Server drain + full jitter', en: 'Server drains + full jitter' },
      drain: true,
      delayMs: fullJitter(p),
      jittered: true,
      fullJitterCeilingMs: exponential(p),
    },
  ];
}

/** When each restarted instance starts draining (or stops, without draining), stops, and is back, in ticks. */
export interface Restart {
  instance: number;
  start: number;
  stop: number;
  up: number;
}

export function restartSchedule(p: ReconnectParams, drain: boolean): Restart[] {
  const drainTicks = drain ? roundTicks(p.drainS) : 0;
  const restartTicks = roundTicks(p.restartS);
  const count = p.deploy === 'rolling' ? p.instances : 1;
  // A rolling deploy with one instance unavailable at a time: the next one starts when the last is back.
  return Array.from({ length: count }, (_, k) => {
    const start = k * (drainTicks + restartTicks);
    return { instance: k, start, stop: start + drainTicks, up: start + drainTicks + restartTicks };
  });
}

export interface ReconnectTrace {
  /** Handshakes attempted, accepted and refused per tick, over every instance. */
  attempts: number[];
  accepted: number[];
  failed: number[];
  /** Handshakes the instances taking new connections could accept in the tick. */
  capacity: number[];
  /** Clients with a connection at the end of each tick. */
  connected: number[];
  /** Connections per instance at the end of the run. */
  connectionsAtEnd: number[];
  /** Clients whose next attempt falls after the end of the run (they end it without a connection). */
  pending: number;
  /** Connections lost: at a stop, or by a GOAWAY while draining. */
  disconnections: number;
  restarts: Restart[];
}

/** Failure counts are kept up to this level; every delay of the model reaches its cap long before. */
export const MAX_FAILURES = 31;

/**
 * One policy over the whole run, counting clients rather than following each one: clients in the
 * same state (failures in a row, next attempt) are alike. Clients start spread evenly (client c on
 * instance c mod n). A restart stops an instance at once (its clients lose their connections in that
 * tick) or, with draining, takes it out of the load balancer and sends each of its clients a GOAWAY at
 * a random tick of the drain window before it stops. The load balancer spreads each tick's attempts
 * round-robin over the instances taking new connections; each accepts at most its handshakes for the
 * tick (fewer when refusals cost it work) and refuses the rest, whose clients wait their policy's
 * delay: drawn for each client with jitter, the same for all without.
 */
export function simulateReconnect(policy: ReconnectPolicy, p: ReconnectParams, seed: number): ReconnectTrace {
  const rng = substream(seed, `reconnect-storm/${policy.stream ?? policy.id}`);
  const total = roundTicks(p.observeS);
  const n = p.instances;
  const N = p.clients;
  const L = MAX_FAILURES + 1;
  const restarts = restartSchedule(p, policy.drain);
  const perTick = p.acceptPerS / TICKS_PER_S;
  const drainTicks = policy.drain ? roundTicks(p.drainS) : 0;
  const cost = p.refusedCostPct / 100;
  const downs = Array.from({ length: n }, (_, k) => restarts.filter((r) => r.instance === k).map((r) => [r.start, r.up] as const));

  const conns = new Float64Array(n);
  for (let k = 0; k < n; k++) conns[k] = Math.floor(N / n) + (k < N % n ? 1 : 0);
  // Clients due to attempt at tick t with f failures in a row. GOAWAYs due at tick t.
  const schedule = new Schedule(total, L);
  const due = schedule.cells;
  const goaways = new Float64Array(total);
  let disconnections = 0;
  let connected = N;
  const attemptAt = (t: number, f: number, count: number): void => schedule.add(t, Math.min(f, MAX_FAILURES), count);
  /** `count` clients have just failed for the `f`-th time in a row at tick t: schedule their next attempt. */
  const waitAfter = (t: number, f: number, count: number): void => {
    if (count === 0) return;
    if (!policy.jittered) {
      attemptAt(t + ticks(policy.delayMs(f, rng)), f, count);
      return;
    }
    const level = Math.min(f, MAX_FAILURES);
    // The built-in full jitter inlined (the same draw and product as fullJitter): the hot loop when few get through.
    const ceiling = policy.fullJitterCeilingMs?.(f);
    for (let i = 0; i < count; i++) {
      const ms = ceiling === undefined ? policy.delayMs(f, rng) : rng() * ceiling;
      schedule.add(t + (ms > TICK_MS ? Math.ceil(ms / TICK_MS) : 1), level, 1);
    }
  };

  const attempts: number[] = [];
  const accepted: number[] = [];
  const failed: number[] = [];
  const capacity: number[] = [];
  const connectedPerTick: number[] = [];
  const allowance = new Float64Array(n);
  const arrivals = new Float64Array(n);
  const accepting: number[] = [];
  let roundRobin = 0;

  for (let t = 0; t < total; t++) {
    for (const r of restarts) {
      const k = r.instance;
      if (r.start === t && policy.drain) {
        // A GOAWAY to each connection at a random tick of the window; a GOAWAY is not a failure.
        for (let i = 0; i < conns[k]!; i++) {
          const at = t + Math.floor(rng() * drainTicks);
          if (at < total) goaways[at]!++;
        }
      }
      if (r.stop === t) {
        // The process stops: whatever is still connected to it is cut off (nothing, after a full drain).
        const cut = conns[k]!;
        conns[k] = 0;
        connected -= cut;
        disconnections += cut;
        // Reconnecting at once, or counting the lost connection as the first failure.
        if (p.reconnectAtOnce) attemptAt(t + 1, 0, cut);
        else waitAfter(t, 1, cut);
      }
    }
    if (goaways[t]! > 0) {
      const draining = restarts.find((r) => t >= r.start && t < r.stop)!.instance;
      const x = Math.min(goaways[t]!, conns[draining]!);
      conns[draining]! -= x;
      connected -= x;
      disconnections += x;
      attemptAt(t + 1, 0, x);
    }

    // Instances taking new connections this tick, and how many handshakes each has room for.
    accepting.length = 0;
    let cap = 0;
    for (let k = 0; k < n; k++) {
      const out = downs[k]!.some(([from, to]) => t >= from && t < to);
      allowance[k] = out ? 0 : Math.floor((t + 1) * perTick) - Math.floor(t * perTick);
      arrivals[k] = 0;
      if (!out) {
        accepting.push(k);
        cap += allowance[k]!;
      }
    }

    const row = t * L;
    let m = 0;
    for (let f = 0; f < L; f++) m += due[row + f]!;
    // Round-robin: every instance taking connections gets m / A attempts, the remainder one each in turn.
    let ok = 0;
    const A = accepting.length;
    if (A > 0 && m > 0) {
      const each = Math.floor(m / A);
      const extra = m - each * A;
      for (let j = 0; j < A; j++) arrivals[accepting[j]!] = each + ((j - (roundRobin % A) + A) % A < extra ? 1 : 0);
      roundRobin += extra;
      for (const k of accepting) {
        const x = acceptedOf(allowance[k]!, arrivals[k]!, cost);
        conns[k]! += x;
        ok += x;
      }
    }
    connected += ok;
    // Which attempts got through is random: share the accepted ones among the failure counts in
    // proportion (stochastic rounding), then schedule the others' next attempts.
    let okLeft = ok;
    let left = m;
    for (let f = 0; f < L && left > 0; f++) {
      const a = due[row + f]!;
      if (a === 0) continue;
      const through = okLeft > 0 ? Math.min(a, okLeft, stochasticRound((a * okLeft) / left, rng)) : 0;
      okLeft -= through;
      left -= a;
      waitAfter(t, f + 1, a - through);
    }
    attempts.push(m);
    accepted.push(ok);
    failed.push(m - ok);
    capacity.push(cap);
    connectedPerTick.push(connected);
  }
  return {
    attempts,
    accepted,
    failed,
    capacity,
    connected: connectedPerTick,
    connectionsAtEnd: [...conns],
    pending: schedule.pending,
    disconnections,
    restarts,
  };
}

/**
 * When the whole fleet was connected again, in ms from the start of the restart (or the deploy): the
 * end of the last tick with a client left without a connection. Null when the run ends with one, or
 * before the last instance has stopped.
 */
export function reconnectedAfterMs(trace: ReconnectTrace, clients: number): number | null {
  const end = trace.connected.length;
  if (trace.restarts.some((r) => r.stop >= end)) return null;
  let last = -1;
  for (let t = end - 1; t >= 0; t--) {
    if (trace.connected[t]! < clients) {
      last = t;
      break;
    }
  }
  if (last === end - 1) return null;
  return (last + 1) * RECONNECT_TICK_MS;
}

/**
 * How many of `arrivals` handshakes an instance accepts with room for `capacity` in the tick, when each
 * refused one costs `cost` of an accepted one: accepted + cost * refused <= capacity. At cost 0 that is
 * min(arrivals, capacity); above 0 the accepted count falls as the arrivals grow, to none at capacity / cost.
 */
export function acceptedOf(capacity: number, arrivals: number, cost: number): number {
  if (arrivals <= capacity) return arrivals;
  if (cost >= 1) return 0;
  return Math.max(0, Math.floor((capacity - cost * arrivals) / (1 - cost) + 1e-9));
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const maxOf = (xs: readonly number[]): number => xs.reduce((a, b) => Math.max(a, b), 0);

export function reconnectRow(policy: ReconnectPolicy, tr: ReconnectTrace, p: ReconnectParams): ReconnectRow {
  const peakPerS = maxOf(tr.attempts) * TICKS_PER_S;
  const offlineTicks = tr.connected.reduce((a, c) => a + (p.clients - c), 0);
  return {
    policy: policy.id,
    peakAttemptsPerS: peakPerS,
    peakLoad: Math.round((peakPerS / (p.instances * p.acceptPerS)) * 10) / 10,
    failedHandshakes: sum(tr.failed),
    reconnectedAfterMs: reconnectedAfterMs(tr, p.clients),
    maxDisconnected: maxOf(tr.connected.map((c) => p.clients - c)),
    offlineClientS: Math.round(offlineTicks / TICKS_PER_S),
  };
}

/**
 * The learner's fullJitterDelay (the backoff exercise) in place of the lab's full jitter: the same
 * `failures` count from 1, the lab's base and cap, and the random stream of "full-jitter", so correct
 * code gives exactly its figures.
 */
export function learnerReconnectPolicy(code: LearnerCode, p: ReconnectParams): ReconnectPolicy {
  const fullJitterDelay = learnerFunction<(failures: number, baseMs: number, capMs: number, random: Rng) => unknown>(code, 'fullJitterDelay');
  return {
    id: learnerPolicyId(code.exercise),
    label: learnerLabel({ vi: 'fullJitterDelay (backoff.ts)', en: 'fullJitterDelay (backoff.ts)' }, code.notPassing),
    drain: false,
    delayMs: (failures, rng) => learnerNumber('fullJitterDelay', fullJitterDelay(failures, p.backoffBaseMs, p.backoffCapMs, rng)),
    jittered: true,
    stream: 'full-jitter',
  };
}

/** "Your code reconnected the whole fleet at the same moment as …, with the same peak." */
export function compareReconnect(yours: ReconnectRow, theirs: ReconnectRow, builtIn: Text, observeS: number): Text {
  const same = yours.peakAttemptsPerS === theirs.peakAttemptsPerS;
  const peak = same
    ? { vi: `cùng đỉnh ${yours.peakAttemptsPerS} attempt/s`, en: `the same peak of ${yours.peakAttemptsPerS} attempts/s` }
    : {
        vi: `đỉnh ${yours.peakAttemptsPerS} attempt/s, so với ${theirs.peakAttemptsPerS} của ${builtIn.vi}`,
        en: `a peak of ${yours.peakAttemptsPerS} attempts/s against ${theirs.peakAttemptsPerS} for ${builtIn.en}`,
      };
  const a = yours.reconnectedAfterMs;
  const b = theirs.reconnectedAfterMs;
  if (a === null && b === null) {
    return {
      vi: `Cả code của bạn lẫn ${builtIn.vi} đều chưa đưa được cả đội client có lại connection trong ${observeS} s được theo dõi; ${peak.vi}.`,
      en: `Neither your code nor ${builtIn.en} reconnected the whole fleet within the ${observeS} s observed; ${peak.en}.`,
    };
  }
  if (a === null) {
    return {
      vi: `Với code của bạn, cả đội client chưa có lại connection trong ${observeS} s được theo dõi; với ${builtIn.vi} thì có sau ${seconds(b!)}; ${peak.vi}.`,
      en: `Your code did not reconnect the whole fleet within the ${observeS} s observed; ${builtIn.en} did after ${seconds(b!)}; ${peak.en}.`,
    };
  }
  if (b === null) {
    return {
      vi: `Với code của bạn, cả đội client có lại connection sau ${seconds(a)}; với ${builtIn.vi} thì chưa, trong ${observeS} s được theo dõi; ${peak.vi}.`,
      en: `Your code reconnected the whole fleet after ${seconds(a)}; ${builtIn.en} did not within the ${observeS} s observed; ${peak.en}.`,
    };
  }
  const d = a - b;
  if (d === 0) {
    return {
      vi: `Với code của bạn, cả đội client có lại connection cùng lúc với ${builtIn.vi} (sau ${seconds(a)}), ${peak.vi}.`,
      en: `Your code reconnected the whole fleet at the same moment as ${builtIn.en} (after ${seconds(a)}), with ${peak.en}.`,
    };
  }
  return d > 0
    ? {
        vi: `Với code của bạn, cả đội client có lại connection muộn hơn ${builtIn.vi} ${seconds(d)}, ${peak.vi}.`,
        en: `Your code reconnected the whole fleet ${seconds(d)} later than ${builtIn.en}, with ${peak.en}.`,
      }
    : {
        vi: `Với code của bạn, cả đội client có lại connection sớm hơn ${builtIn.vi} ${seconds(-d)}, ${peak.vi}.`,
        en: `Your code reconnected the whole fleet ${seconds(-d)} earlier than ${builtIn.en}, with ${peak.en}.`,
      };
}

const DEPLOY_LABELS: Record<DeployMode, Text> = {
  one: { vi: 'Một instance khởi động lại', en: 'One instance restarts' },
  rolling: { vi: 'Rolling deploy (lần lượt từng instance)', en: 'Rolling deploy (one instance after another)' },
};

function markers(p: ReconnectParams): Marker[] {
  const n = p.deploy === 'rolling' ? p.instances : 1;
  const list: Marker[] =
    p.deploy === 'rolling'
      ? [
          { x: 0, label: { vi: 'Bắt đầu deploy', en: 'Deploy starts' } },
          { x: n * p.restartS, label: { vi: 'Hết deploy (không drain)', en: 'Deploy over (no drain)' } },
          { x: n * (p.drainS + p.restartS), label: { vi: 'Hết deploy (có drain)', en: 'Deploy over (with draining)' } },
        ]
      : [
          { x: 0, label: { vi: 'Instance dừng (hoặc bắt đầu drain)', en: 'Instance stops (or starts draining)' } },
          { x: p.restartS, label: { vi: 'Chạy lại (không drain)', en: 'Back up (no drain)' } },
          { x: p.drainS, label: { vi: 'Hết drain, instance dừng', en: 'Drain over, instance stops' } },
          { x: p.drainS + p.restartS, label: { vi: 'Chạy lại (sau drain)', en: 'Back up (after draining)' } },
        ];
  return list.filter((m) => m.x <= p.observeS);
}

export const reconnectStorm: SimDefinition<ReconnectParams, ReconnectRow> = {
  name: 'reconnect-storm',
  title: { vi: 'Reconnect storm sau khi server khởi động lại', en: 'Reconnect storm after a server restart' },
  description: {
    vi: 'Một đội client giữ connection sống lâu (gRPC stream, WebSocket) tới vài instance; một instance khởi động lại. Client reconnect ngay, với backoff, với jitter, hay server drain trước khi dừng: bao nhiêu lần bắt tay dồn vào các server, bao nhiêu lần bị từ chối, và bao lâu thì cả đội client có lại connection?',
    en: 'A fleet of clients with long-lived connections (gRPC streams, WebSockets) to a few instances; one instance restarts. Clients reconnect at once, with backoff, with jitter, or the server drains before it stops: how many handshakes hit the servers, how many are refused, and how long until the whole fleet is connected again?',
  },
  params: [
    { key: 'clients', kind: 'int', min: 10, max: 20000, step: 10, default: 5000, label: { vi: 'Số client', en: 'Clients' } },
    { key: 'instances', kind: 'int', min: 1, max: 20, step: 1, default: 5, label: { vi: 'Số instance server', en: 'Server instances' } },
    {
      key: 'acceptPerS',
      kind: 'number',
      min: 10,
      max: 100000,
      step: 10,
      default: 100,
      label: { vi: 'Số lần bắt tay mỗi instance nhận được mỗi giây', en: 'Handshakes each instance accepts per second' },
      help: {
        vi: 'Vượt quá mức này trong một tick 100 ms, lần bắt tay bị từ chối và client thử lại theo chính sách của nó.',
        en: 'Beyond this in a 100 ms tick, handshakes are refused and the client retries by its policy.',
      },
    },
    {
      key: 'restartS',
      kind: 'number',
      min: 0.1,
      max: 300,
      step: 0.1,
      unit: 's',
      default: 15,
      label: { vi: 'Thời gian khởi động lại (instance không nhận connection)', en: 'Restart time (the instance takes no connections)' },
    },
    {
      key: 'deploy',
      kind: 'select',
      default: 'one',
      options: (['one', 'rolling'] as const).map((v) => ({ value: v, label: DEPLOY_LABELS[v] })),
      label: { vi: 'Cái gì khởi động lại', en: 'What restarts' },
    },
    { key: 'backoffBaseMs', kind: 'number', min: 10, max: 10000, step: 10, unit: 'ms', default: 1000, label: { vi: 'Backoff base', en: 'Backoff base' } },
    {
      key: 'backoffCapMs',
      kind: 'number',
      min: 1000,
      max: 300000,
      step: 100,
      unit: 'ms',
      default: 30000,
      label: { vi: 'Backoff cap (trần)', en: 'Backoff cap' },
    },
    {
      key: 'drainS',
      kind: 'number',
      min: 0.1,
      max: 300,
      step: 0.1,
      unit: 's',
      default: 10,
      label: { vi: 'Cửa sổ drain (GOAWAY rải đều trong đó)', en: 'Drain window (GOAWAYs spread over it)' },
    },
    { key: 'observeS', kind: 'number', min: 10, max: 900, step: 10, unit: 's', default: 120, label: { vi: 'Thời gian theo dõi', en: 'Time observed' } },
    {
      key: 'refusedCostPct',
      kind: 'number',
      min: 0,
      max: 100,
      step: 1,
      unit: '%',
      default: 0,
      label: { vi: 'Chi phí một lần bắt tay bị từ chối (% của một lần được nhận)', en: 'Cost of a refused handshake (% of an accepted one)' },
      help: {
        vi: '0: từ chối không tốn gì (một limiter reset connection ngay). Lớn hơn 0: mỗi lần từ chối dùng mất chừng đó capacity bắt tay của instance, như phần việc TLS đã làm cho một lần bắt tay rồi bị từ chối hoặc bỏ dở.',
        en: '0: refusing is free (a limiter that resets the connection at once). Above 0, each refusal uses that share of the instance’s handshake capacity, like TLS work done on a handshake that is then refused or abandoned.',
      },
    },
    {
      key: 'reconnectAtOnce',
      kind: 'boolean',
      default: false,
      label: {
        vi: 'Reconnect ngay khi mất connection (chỉ backoff sau một lần thử thất bại)',
        en: 'Reconnect at once when a connection is lost (back off only after a failed attempt)',
      },
    },
  ],
  check: (p) =>
    p.backoffCapMs < p.backoffBaseMs ? { vi: 'backoffCapMs phải lớn hơn hoặc bằng backoffBaseMs.', en: 'backoffCapMs must be at least backoffBaseMs.' } : null,
  learnerExercises: ['backoff'],
  learnerNote: {
    vi: 'Lab chạy fullJitterDelay của bạn thay cho full jitter có sẵn (instance dừng, không drain), với base và cap của lab.',
    en: 'The lab runs your fullJitterDelay in place of its own full jitter (the instance stops without draining), with the lab’s base and cap.',
  },
  run(p, seed, learner = []): SimResult<ReconnectRow> {
    const policies = reconnectPolicies(p);
    const traces = policies.map((pol) => simulateReconnect(pol, p, seed));
    const outcomes: LearnerOutcome[] = [];
    for (const code of learner) {
      const base = {
        exercise: code.exercise,
        policy: learnerPolicyId(code.exercise),
        label: learnerLabel({ vi: 'fullJitterDelay (backoff.ts)', en: 'fullJitterDelay (backoff.ts)' }, code.notPassing),
        notPassing: code.notPassing === true,
      };
      const { outcome, result } = runLearner(base, () => {
        const policy = learnerReconnectPolicy(code, p);
        return { policy, trace: simulateReconnect(policy, p, seed) };
      });
      if (result) {
        policies.push(result.policy);
        traces.push(result.trace);
      }
      outcomes.push(outcome);
    }
    const rows = policies.map((pol, i) => reconnectRow(pol, traces[i]!, p));
    const jitter = policies.find((x) => x.id === 'full-jitter')!;
    for (const outcome of outcomes) {
      if (outcome.error) continue;
      const yours = rows.find((r) => r.policy === outcome.policy)!;
      const theirs = rows.find((r) => r.policy === 'full-jitter')!;
      outcome.comparison = compareReconnect(yours, theirs, { vi: `"${jitter.label.vi}"`, en: `"${jitter.label.en}"` }, p.observeS);
    }

    const x = traces[0]!.attempts.map((_, t) => Math.round(t * RECONNECT_TICK_MS) / 1000);
    const chart = (id: string, title: Text, y: XYChart['y'], pick: (tr: ReconnectTrace) => number[]): XYChart => ({
      id,
      kind: 'line',
      title,
      x: { label: { vi: 'Thời gian từ lúc bắt đầu khởi động lại', en: 'Time since the restart began' }, unit: 's' },
      y,
      series: policies.map((pol, i) => ({ id: pol.id, label: pol.label, x, y: pick(traces[i]!) })),
      markers: markers(p),
    });
    const builtIn = rows.slice(0, reconnectPolicies(p).length);
    const lowest = builtIn.reduce((a, b) => (b.peakAttemptsPerS < a.peakAttemptsPerS ? b : a));
    const reconnected = builtIn.filter((r) => r.reconnectedAfterMs !== null);
    const fastest = reconnected.length ? reconnected.reduce((a, b) => (b.reconnectedAfterMs! < a.reconnectedAfterMs! ? b : a)) : null;
    return {
      rows,
      columns: [
        { key: 'policy', label: { vi: 'Chính sách', en: 'Policy' } },
        { key: 'peakAttemptsPerS', label: { vi: 'Đỉnh số attempt kết nối mỗi giây', en: 'Peak connection attempts per second' } },
        { key: 'peakLoad', label: { vi: 'Đỉnh / capacity bắt tay của mọi instance', en: 'Peak / handshake capacity of all instances' }, unit: 'x' },
        { key: 'failedHandshakes', label: { vi: 'Lần bắt tay thất bại', en: 'Failed handshakes' } },
        { key: 'reconnectedAfterMs', label: { vi: 'Cả đội client có lại connection sau', en: 'Whole fleet connected again after' }, unit: 'ms' },
        { key: 'maxDisconnected', label: { vi: 'Số client mất connection cùng lúc (tối đa)', en: 'Most clients without a connection at once' } },
        {
          key: 'offlineClientS',
          label: { vi: 'Tổng thời gian mất connection của các client', en: 'Time without a connection, summed over clients' },
          unit: 's',
        },
      ],
      ...(outcomes.length ? { learner: outcomes } : {}),
      charts: [
        chart(
          'attempts',
          { vi: 'Attempt kết nối tới các server mỗi giây (đo theo tick 100 ms)', en: 'Connection attempts on the servers per second (per 100 ms tick)' },
          { label: { vi: 'Attempt mỗi giây', en: 'Attempts per second' }, logOption: true },
          (tr) => tr.attempts.map((a) => a * TICKS_PER_S),
        ),
        chart(
          'connected',
          { vi: 'Client đang có connection', en: 'Clients with a connection' },
          { label: { vi: 'Client có connection', en: 'Connected clients' } },
          (tr) => tr.connected,
        ),
      ],
      summary: [
        {
          key: 'fleetAcceptPerS',
          label: { vi: 'Capacity bắt tay của mọi instance (mỗi giây)', en: 'Handshake capacity of all instances (per second)' },
          value: p.instances * p.acceptPerS,
        },
        {
          key: 'clientsOnRestarted',
          label: { vi: 'Connection trên instance khởi động lại đầu tiên', en: 'Connections on the first instance restarted' },
          value: Math.ceil(p.clients / p.instances),
        },
        { key: 'lowestPeak', label: { vi: 'Đỉnh thấp nhất', en: 'Lowest peak' }, value: lowest.policy },
        {
          key: 'fastestReconnect',
          label: { vi: 'Cả đội client có lại connection sớm nhất', en: 'Whole fleet connected again soonest' },
          value: fastest?.policy ?? null,
        },
      ],
    };
  },
};
