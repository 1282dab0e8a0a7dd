// What the page and the grading worker say to each other. The worker reports the run with the same
// events the Node grader's reporter and setup file write (src/grading/core/events.ts), so one mapping
// (mapReport) turns either into the learner's report.
import type { ProgressEvent, ReporterEvent } from '../../grading/core/events.ts';

/** Page → worker: grade these learner files against the suite served at `suiteUrl`. */
export interface GradeJob {
  suiteUrl: string;
  /** The learner's files by their declared paths (e.g. `retry.ts`), TypeScript. */
  files: Record<string, string>;
  testTimeoutMs: number;
}

/** Worker → page. `events` lines are the reporter's; `progress` lines are each test's start and end. */
export type WorkerMessage =
  | { type: 'event'; event: ReporterEvent }
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'done' }
  /** The suite itself could not be loaded (network, a broken build): not the learner's fault. */
  | { type: 'failed'; message: string };
