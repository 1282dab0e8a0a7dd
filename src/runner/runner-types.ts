import type { Lang, Report } from '../grading/types.ts';

export type RunnerKind = 'local' | 'webcontainer';

/** Why no runner is available: each has its own message for the learner. */
export type UnavailableReason = 'not-isolated' | 'unsupported' | 'unreachable' | 'install-failed';

export interface GradeInput {
  exerciseId: string;
  files: Record<string, string>;
  lang: Lang;
}

/** Something that grades the learner's files: the local runner or a WebContainer. */
export interface Runner {
  readonly kind: RunnerKind;
  grade(input: GradeInput): Promise<Report>;
}

/** A request the runner refused (bad input): shown to the learner as it is, in the page's language. */
export class RunnerInputError extends Error {
  override name = 'RunnerInputError';
}
