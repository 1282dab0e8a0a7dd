/**
 * Where a learner's code runs when an instructor grades a class. Submissions are untrusted, so the
 * default is the confined sandbox; without one, grading is refused. --unsafe-no-sandbox asks for plain
 * child processes (NodeSandbox) by name, with a loud warning, whether or not confinement exists.
 * This is the ONE place that choice is made. `ConfinedSandbox` and `confinementStatus` are optional in
 * `SandboxModule` and feature-detected at run time, so this compiles and runs whether or not the grading
 * module exports them.
 */
import { availableParallelism } from 'node:os';
import * as grading from '../grading/index.ts';
import type { Sandbox } from '../grading/core/types.ts';
import { cm, type Lang, type Message } from './messages.ts';

export type SandboxFactory = () => Promise<Sandbox>;

export interface ConfinementStatus {
  available: boolean;
  mechanism: string;
  reason?: string;
}

/** The part of src/grading/index.ts this needs (tests pass a stand-in). */
export interface SandboxModule {
  NodeSandbox: { create(): Promise<Sandbox> };
  ConfinedSandbox?: { create(opts?: object): Promise<Sandbox> };
  confinementStatus?: () => ConfinementStatus;
}

export type SandboxChoice =
  | { ok: true; confined: true; mechanism: string; factory: SandboxFactory }
  | { ok: true; confined: false; factory: SandboxFactory; warning: Message }
  | { ok: false; refusal: Message };

function status(mod: SandboxModule): ConfinementStatus {
  if (typeof mod.confinementStatus !== 'function' || typeof mod.ConfinedSandbox?.create !== 'function') {
    return { available: false, mechanism: 'none', reason: '' };
  }
  try {
    return mod.confinementStatus();
  } catch (error) {
    return { available: false, mechanism: 'none', reason: (error as Error).message };
  }
}

export function createSubmissionSandbox(
  opts: { unsafeNoSandbox: boolean },
  // Type-checked against the real module: its confined sandbox, when exported, must fit this shape.
  mod: SandboxModule = grading,
): SandboxChoice {
  // Asked for by name: plain child processes even where confinement exists (trusted code, a broken setup).
  if (opts.unsafeNoSandbox) {
    return { ok: true, confined: false, factory: () => mod.NodeSandbox.create(), warning: { key: 'sandbox.warn', params: {} } };
  }
  const found = status(mod);
  if (found.available) {
    const confined = mod.ConfinedSandbox!;
    return { ok: true, confined: true, mechanism: found.mechanism, factory: () => confined.create() };
  }
  // An empty reason means the grading module has no confined sandbox at all (said in the reader's language).
  return { ok: false, refusal: { key: 'sandbox.refuse', params: { reason: found.reason ?? '' } } };
}

/** A sandbox message in one language; an empty reason means this build has no confined sandbox at all. */
export function sandboxText(lang: Lang, m: Message): string {
  const reason = m.params['reason'];
  return cm(lang, m.key, { ...m.params, ...(m.key === 'sandbox.refuse' && !reason ? { reason: cm(lang, 'sandbox.notBuilt') } : {}) });
}

/**
 * How many learners are graded at once when --jobs is not given. Part of a strict (confined) grade
 * is spent waiting on the suite's real timers in processes that sleep, so one grade per core keeps
 * the machine busy (the benchmark class on an idle 2-core machine, 1 Dec 2026: 115 to 122 s with 2
 * at a time, 104 s with 3; see the README's Benchmarks). Not more: the suites' timing rules need the
 * processes to get a core when they wake, and with 3 strict grades at once on 2 cores the strict
 * proof's first attempt differed for 2 of 204 entries once (hedged-fetch and fan-out, whose tests
 * time hedges at 15 to 40 ms). In one process per grade (unconfined), a core is left to the machine.
 */
export function defaultJobs(confined: boolean, cores: number = availableParallelism()): number {
  return confined ? cores : Math.max(1, cores - 1);
}
