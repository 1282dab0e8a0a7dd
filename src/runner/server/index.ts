// The Node side of the local runner: the API, graded with the grading engine's Node sandbox.
import { createWarmGrader } from '../../grading/index.ts';
import { createRunnerApi, type RunnerApi } from './runner-api.ts';

export { createRunnerApi, newRunnerToken, type RunnerApi } from './runner-api.ts';

/**
 * The runner API backed by real grading on this machine: one sandbox per exercise, kept with vitest
 * and the type checker running, so a learner's re-run skips their start-up.
 */
export function localRunnerApi(token?: string): RunnerApi {
  const grader = createWarmGrader();
  return createRunnerApi({ grade: (body) => grader.grade(body), ...(token ? { token } : {}) });
}
