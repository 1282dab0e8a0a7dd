// The Node side of the local runner: the API, graded with the grading engine's Node sandbox.
import { gradeExercise } from '../../grading/index.ts';
import { createRunnerApi, type RunnerApi } from './runner-api.ts';

export { createRunnerApi, type RunnerApi } from './runner-api.ts';

/** The runner API backed by real grading on this machine (a fresh temp-dir sandbox per run). */
export function localRunnerApi(): RunnerApi {
  return createRunnerApi({ grade: (body) => gradeExercise(body) });
}
