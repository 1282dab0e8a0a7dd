/**
 * "Use my code" in a lab, the worker's side: the learner's saved TypeScript, made runnable as the
 * worker runner makes it (types removed by the same stripper, Node's modules there as in the grading
 * worker), imported from blob: URLs. Loaded by the lab's worker only when a learner's code is asked
 * for, so a lab without it carries none of this. `Math.random` is seeded per run: code that calls it
 * (instead of the random source it is given) still gives the same figures for the same seed.
 */
import { seededRandom } from '../../exercises/_env/grader-random.mjs';
import { importLearnerFiles, nodeModuleUrls, sandboxUrlOf } from '../runner/worker/learner-modules.ts';
import { installNodeRuntime, type TimerScope } from '../runner/worker/node/index.ts';
import { NODE_MODULES_GLOBAL } from '../runner/worker/suite-paths.ts';
import { stripTypes } from '../runner/worker/strip-types.ts';
import type { LearnerCode, Text } from '../sims/index.ts';
import type { LearnerFiles } from './learner-code.ts';

let urls: Record<string, string> | undefined;

function runtime(): Record<string, string> {
  if (!urls) {
    const scope = self as unknown as TimerScope & Record<string, unknown>;
    const { modules } = installNodeRuntime(scope, sandboxUrlOf);
    scope[NODE_MODULES_GLOBAL] = modules;
    urls = nodeModuleUrls(modules);
  }
  return urls;
}

/** The learner's modules, or the message that says why one could not be loaded. */
export async function loadLearnerCode(
  files: readonly LearnerFiles[],
  sim: string,
  seed: number,
): Promise<{ code: LearnerCode[]; errors: { exercise: string; error: Text }[] }> {
  const code: LearnerCode[] = [];
  const errors: { exercise: string; error: Text }[] = [];
  for (const f of files) {
    try {
      const stripped = Object.fromEntries(Object.entries(f.files).map(([path, source]) => [path, stripTypes(path, source)]));
      const { modules } = await importLearnerFiles(stripped, runtime());
      const exports = Object.assign({}, ...Object.values(modules)) as Record<string, unknown>;
      code.push({ exercise: f.exercise, exports, notPassing: f.notPassing });
    } catch (err) {
      const what = err instanceof Error ? err.message : String(err);
      errors.push({ exercise: f.exercise, error: { vi: `Không nạp được code của bạn: ${what}`, en: `Your code could not be loaded: ${what}` } });
    }
  }
  Math.random = seededRandom(`${sim}/${seed}`);
  return { code, errors };
}
