// The Node side of the local runner: the API, graded in the confined sandbox where this machine has
// one, else in plain child processes (with a clean environment, but as the user who started it).
import { ConfinedSandbox, confinementStatus, createWarmGrader, NodeSandbox } from '../grading/index.ts';
import type { Report, Sandbox } from '../grading/core/index.ts';
import type { Bilingual } from '../i18n/index.ts';
import { createRunnerApi, type RunnerApi } from './runner-api.ts';

export { createRunnerApi, newRunnerToken, type RunnerApi } from './runner-api.ts';

export interface RunnerSandbox {
  confined: boolean;
  /** How runs are confined, or that they are not: said at start-up and in every report. */
  mechanism: string;
  /** Why this machine cannot confine runs, in both languages (said at start-up). */
  reason?: Bilingual;
  create: () => Promise<Sandbox & { readonly root: string }>;
}

export const UNCONFINED = 'plain child processes: the code runs as you, with your files and network (clean environment only)';

/** The confined sandbox when this machine can confine runs (and it is not turned off), else plain processes. */
export function runnerSandbox(env: NodeJS.ProcessEnv = process.env, status = confinementStatus): RunnerSandbox {
  const found = env.COURSE_RUNNER_UNCONFINED === '1' ? undefined : status();
  if (found?.available) return { confined: true, mechanism: found.mechanism, create: () => ConfinedSandbox.create() };
  return { confined: false, mechanism: UNCONFINED, ...(found?.reason ? { reason: found.reason } : {}), create: () => NodeSandbox.create() };
}

/** Each report says where the code ran, so the page can show it. */
export const withSandbox = (report: Report, sandbox: RunnerSandbox): Report => ({
  ...report,
  sandbox: { confined: sandbox.confined, mechanism: sandbox.mechanism },
});

/**
 * The runner API backed by real grading on this machine: one sandbox per exercise, kept with the type
 * checker (and, in plain processes, vitest) running, so a learner's re-run skips their start-up.
 */
export function localRunnerApi(token?: string, sandbox: RunnerSandbox = runnerSandbox()): RunnerApi & { sandbox: RunnerSandbox } {
  const grader = createWarmGrader({ createSandbox: sandbox.create });
  const api = createRunnerApi({ grade: async (body) => withSandbox(await grader.grade(body), sandbox), ...(token ? { token } : {}) });
  return Object.assign(api, { sandbox });
}
