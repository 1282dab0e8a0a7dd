/**
 * The contract every runner meets (local, Web Worker, WebContainer): what the workspace asks of a
 * runner and what it gets back, so the page can grade without knowing where the run happens.
 */
import type { Lang, Report } from '../grading/core/index.ts';

/** Where a run happens: the local runner (npm start), a Web Worker in the page, or a WebContainer. */
export type RunnerKind = 'local' | 'worker' | 'webcontainer';

/**
 * Why no runner is available: each has its own message for the learner. `token-missing`: the local
 * runner serves the page but refuses this tab, and the exercise cannot be graded in the page.
 */
export type UnavailableReason = 'not-isolated' | 'unsupported' | 'unreachable' | 'install-failed' | 'token-missing';

export interface GradeInput {
  exerciseId: string;
  files: Record<string, string>;
  lang: Lang;
}

/** How far a run has got, where the runner can tell: tests finished out of those collected so far. */
export interface RunProgress {
  done: number;
  total: number;
}

/** Something that grades the learner's files. */
export interface Runner {
  readonly kind: RunnerKind;
  /** `onProgress` is called as tests finish, by the runners that see them finish (the worker runner). */
  grade(input: GradeInput, onProgress?: (progress: RunProgress) => void): Promise<Report>;
}

/** A request the runner refused (bad input): shown to the learner as it is, in the page's language. */
export class RunnerInputError extends Error {
  override name = 'RunnerInputError';
}
