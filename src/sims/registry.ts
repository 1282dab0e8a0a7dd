/**
 * Every simulation by name, and running one through the generic interface the lab UI and the CLI
 * share: parameter checks, the seed and the learner's code.
 */
import { amplification } from './amplification.ts';
import { deadlineChain } from './deadline-chain.ts';
import { hedging } from './hedging.ts';
import { jitterWaves } from './jitter-waves.ts';
import { overloadRecovery } from './overload-recovery.ts';
import { parseAssignments, validateParams, type Validation } from './params.ts';
import { reconnectStorm } from './reconnect-storm.ts';
import { retryStorm } from './retry-storm.ts';
import { timeoutChoice } from './timeout-choice.ts';
import type { LearnerCode } from './learner.ts';
import type { ParamValues, SimDefinition, SimResult } from './types.ts';

/** A simulation seen through the generic interface the lab UI and the CLI use. */
export type AnySim = SimDefinition<ParamValues>;

export const SIMS: readonly AnySim[] = [
  jitterWaves,
  retryStorm,
  hedging,
  deadlineChain,
  amplification,
  timeoutChoice,
  overloadRecovery,
  reconnectStorm,
] as AnySim[];

export type SimName =
  | 'jitter-waves'
  | 'retry-storm'
  | 'hedging'
  | 'deadline-chain'
  | 'amplification'
  | 'timeout-choice'
  | 'overload-recovery'
  | 'reconnect-storm';

export const DEFAULT_SEED = 1;

export function getSim(name: string): AnySim | undefined {
  return SIMS.find((s) => s.name === name);
}

/** Check a partial parameter object (defaults fill the gaps), including constraints between parameters. */
export function validateSimParams(sim: AnySim, input: Readonly<Record<string, unknown>>): Validation<ParamValues> {
  const v = validateParams(sim.params, input);
  if (!v.ok) return v;
  const err = sim.check?.(v.params);
  return err ? { ok: false, errors: [err] } : v;
}

/** Same as `validateSimParams`, from `key=value` strings (CLI, URL). */
export function parseSimParams(sim: AnySim, assignments: readonly string[]): Validation<ParamValues> {
  const v = parseAssignments(sim.params, assignments);
  if (!v.ok) return v;
  const err = sim.check?.(v.params);
  return err ? { ok: false, errors: [err] } : v;
}

export class SimParamError extends Error {
  constructor(readonly errors: { vi: string; en: string }[]) {
    super(errors.map((e) => e.en).join(' '));
    this.name = 'SimParamError';
  }
}

/** Validate, then run. Throws SimParamError (messages in both languages) on bad input. */
export function runSim(name: string, input: Readonly<Record<string, unknown>> = {}, seed = DEFAULT_SEED, learner: readonly LearnerCode[] = []): SimResult {
  const sim = getSim(name);
  if (!sim) {
    throw new SimParamError([
      {
        vi: `Không có simulation "${name}". Có: ${SIMS.map((s) => s.name).join(', ')}.`,
        en: `No simulation "${name}". Available: ${SIMS.map((s) => s.name).join(', ')}.`,
      },
    ]);
  }
  const v = validateSimParams(sim, input);
  if (!v.ok) throw new SimParamError(v.errors);
  const unusable = learner.find((code) => !sim.learnerExercises?.includes(code.exercise));
  if (unusable) throw new SimParamError([learnerUnusable(sim, unusable.exercise)]);
  return sim.run(v.params, normalizeSeed(seed), learner);
}

/** The message for learner code of an exercise this simulation cannot run. */
export function learnerUnusable(sim: AnySim, exercise: string): { vi: string; en: string } {
  const can = sim.learnerExercises?.join(', ');
  return can
    ? {
        vi: `Simulation "${sim.name}" không chạy được code của bài "${exercise}"; nó chạy được code của: ${can}.`,
        en: `The "${sim.name}" simulation cannot run code for "${exercise}"; it can run code for: ${can}.`,
      }
    : { vi: `Simulation "${sim.name}" không chạy code của học viên.`, en: `The "${sim.name}" simulation runs no learner code.` };
}

/** Seeds are 32-bit unsigned integers; anything else is rejected rather than silently changed. */
export function normalizeSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new SimParamError([
      {
        vi: `Seed phải là số nguyên từ 0 đến ${0xffffffff} (nhận ${seed}).`,
        en: `The seed must be an integer from 0 to ${0xffffffff} (got ${seed}).`,
      },
    ]);
  }
  return seed;
}
