// The Node back-end of the grading engine: exercise folders on disk, the temp-dir and confined
// sandboxes, the warm grader and type checker, strict grading, the proof's catalogue. The pure core it
// drives is ../core/; test fakes are in ../testing/ and are not exported.
import { createRequire } from 'node:module';
import { fsExerciseSource } from './fs-source.ts';
import { gradeWith, type GradeOptions, type GradeRequest } from '../core/index.ts';
import { NodeSandbox } from './node-sandbox.ts';
import type { Report, Sandbox } from '../core/index.ts';

export { NodeSandbox, killSandboxesOnSignals } from './node-sandbox.ts';
export { sandboxesStopping } from './live-sandboxes.ts';
export { warmTypeChecker } from './warm-typecheck.ts';
export { createWarmGrader, type WarmGraderOptions } from './warm-grader.ts';
export { fsExerciseSource, readTree, REPO_ROOT, EXERCISES_DIR, ENV_DIR } from './fs-source.ts';
// Grading other people's code (a class's submissions): confined runs, or a clear reason why not.
export { ConfinedSandbox, ConfinementUnavailableError, type ConfinedSandboxOptions } from './confined-sandbox.ts';
export { confinementStatus, NO_REASON, type ConfinementStatus } from './confinement.ts';
// Strict grading: the learner's modules in a process of their own, reached only through a protocol.
export { gradeStrict, type StrictOutcome, type StrictSandboxes, type Suspicion } from './strict-grade.ts';
export { StrictGrader } from './strict-grader.ts';

/**
 * Type checking on the command line uses the repository's TypeScript (not installed in the
 * exercise environment, to keep the browser install small); the env's tsconfig.json is strict.
 */
export function nodeTypeCheck(): GradeOptions['typecheck'] {
  try {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    return { command: 'node', args: [tsc, '--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'] };
  } catch {
    return false;
  }
}

const defaultSource = fsExerciseSource();

/** Grades on this machine: a fresh temp-dir sandbox per call unless one is given. */
export async function gradeExercise(request: GradeRequest, sandbox?: Sandbox, opts: Partial<GradeOptions> = {}): Promise<Report> {
  const own = sandbox ? undefined : await NodeSandbox.create();
  try {
    return await gradeWith(request, sandbox ?? own!, { source: defaultSource, typecheck: nodeTypeCheck(), ...opts });
  } finally {
    await own?.dispose();
  }
}
