/**
 * Grading a class strictly: each learner's modules run in a confined process of their own and the
 * hidden tests reach them only through the grading protocol (src/grading/node/strict-grade.ts), so no
 * submission can change its own verdict. The tests' sandboxes stay warm across learners (no
 * learner's code ever runs in them); every learner gets a fresh process. Every exercise is graded
 * this way (the strict proof checks that the protocol carries each one).
 */
import { fsExerciseSource, StrictGrader, type ExerciseSource } from '../grading/index.ts';
import type { ClassGradingIO } from './grade-class.ts';
import { nodeClassIO } from './node-io.ts';
import type { SandboxFactory } from './sandbox.ts';
import { limitFlag } from './flags.ts';

export interface StrictClassIO extends ClassGradingIO {
  /** Frees the warm sandboxes. */
  dispose(): Promise<void>;
}

export function strictClassIO(dir: string, factory: SandboxFactory, source: ExerciseSource = fsExerciseSource()): StrictClassIO {
  const plain = nodeClassIO(dir, factory, source);
  const grader = new StrictGrader(factory, { source });
  return {
    ...plain,
    async gradeExercise(exerciseId, files, lang) {
      const { report, suspicions, learnerLimits = [] } = await grader.grade({ exerciseId, files, lang });
      return { report, tampering: suspicions.map((s) => `${s.kind}: ${s.detail}`), flags: learnerLimits.flatMap(limitFlag) };
    },
    dispose: () => grader.dispose(),
  };
}
