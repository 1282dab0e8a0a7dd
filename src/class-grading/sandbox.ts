/**
 * Where a learner's code runs when an instructor grades a class. Submissions are untrusted, so the
 * default is the confined sandbox; without one, grading is refused. --unsafe-no-sandbox asks for plain
 * child processes (NodeSandbox) by name, with a loud warning, whether or not confinement exists.
 * This is the ONE place that choice is made.
 */
import { availableParallelism } from 'node:os';
import * as grading from '../grading/index.ts';
import type { Sandbox } from '../grading/index.ts';
import type { Bilingual } from '../i18n/index.ts';
import { cm, type Lang, type Message } from './messages.ts';

export type SandboxFactory = () => Promise<Sandbox>;

export interface ConfinementStatus {
  available: boolean;
  mechanism: string;
  reason?: Bilingual;
}

/** A sandbox message. A reason from the machine comes in both languages, and each text takes its own. */
export interface SandboxMessage extends Message {
  reason?: Bilingual;
}

/** The part of src/grading/index.ts this needs (tests pass a stand-in). */
export interface SandboxModule {
  NodeSandbox: { create(): Promise<Sandbox> };
  ConfinedSandbox: { create(opts?: object): Promise<Sandbox> };
  confinementStatus: () => ConfinementStatus;
}

export type SandboxChoice =
  | { ok: true; confined: true; mechanism: string; factory: SandboxFactory }
  | { ok: true; confined: false; factory: SandboxFactory; warning: Message }
  | { ok: false; refusal: SandboxMessage };

/** A probe that throws counts as no confinement, with its message as the reason. */
function status(mod: SandboxModule): ConfinementStatus {
  try {
    return mod.confinementStatus();
  } catch (error) {
    const said = (error as Error).message;
    return { available: false, mechanism: 'none', reason: { vi: `kiểm tra cơ chế cô lập bị lỗi: ${said}`, en: `the confinement check failed: ${said}` } };
  }
}

export function createSubmissionSandbox(
  opts: { unsafeNoSandbox: boolean },
  // Type-checked against the real module.
  mod: SandboxModule = grading,
): SandboxChoice {
  // Asked for by name: plain child processes even where confinement exists (trusted code, a broken setup).
  if (opts.unsafeNoSandbox) {
    return { ok: true, confined: false, factory: () => mod.NodeSandbox.create(), warning: { key: 'sandbox.warn', params: {} } };
  }
  const found = status(mod);
  if (found.available) {
    return { ok: true, confined: true, mechanism: found.mechanism, factory: () => mod.ConfinedSandbox.create() };
  }
  return { ok: false, refusal: { key: 'sandbox.refuse', params: {}, reason: found.reason ?? grading.NO_REASON } };
}

/** A sandbox message in one language. */
export function sandboxText(lang: Lang, m: SandboxMessage): string {
  return cm(lang, m.key, m.reason ? { ...m.params, reason: m.reason[lang] } : m.params);
}

/**
 * How many learners are graded at once when --jobs is not given. Part of a strict (confined) grade
 * is spent waiting on the suite's real timers in processes that sleep, so one grade per core keeps
 * the machine busy (`npm run bench:grade-class` measures it; figures in docs/benchmarks.md). Not more:
 * the suites' timing rules need the processes to get a core when they wake, and with more strict
 * grades at once than cores the strict proof can differ for hedged-fetch and fan-out, whose tests time
 * hedges in tens of milliseconds. In one process per grade (unconfined), a core is left to the machine.
 */
export function defaultJobs(confined: boolean, cores: number = availableParallelism()): number {
  return confined ? cores : Math.max(1, cores - 1);
}
