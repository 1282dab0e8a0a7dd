import type { Lang, Report } from '../grading/core/types.ts';

/** Where a run happens: the local runner (npm start), a Web Worker in the page, or a WebContainer. */
export type RunnerKind = 'local' | 'worker' | 'webcontainer';

/** Why no runner is available: each has its own message for the learner. */
export type UnavailableReason = 'not-isolated' | 'unsupported' | 'unreachable' | 'install-failed';

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
