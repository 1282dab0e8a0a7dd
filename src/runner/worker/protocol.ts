// What the page and the grading worker say to each other. The worker reports the run with the same
// events the Node grader's reporter and setup file write (src/grading/core/events.ts), so one mapping
// (mapReport) turns either into the learner's report.
import type { ProgressEvent, ReporterEvent } from '../../grading/core/index.ts';
import type { ChildJob, ChildMessage } from './child-process.ts';

/** Page → worker: grade these learner files against the suite served at `suiteUrl`. */
export interface GradeJob {
  suiteUrl: string;
  /** The learner's files by their declared paths (e.g. `retry.ts`), TypeScript. */
  files: Record<string, string>;
  testTimeoutMs: number;
}

/**
 * Page → worker, after the job: what a "child process" the page started for the worker said
 * (child-host.ts), or that it could not start.
 */
export type ChildReply = { type: 'child-message'; child: number; message: ChildMessage } | { type: 'child-error'; child: number; message: string };

export type PageMessage = GradeJob | ChildReply;

/** Worker → page. `events` lines are the reporter's; `progress` lines are each test's start and end. */
export type WorkerMessage =
  | { type: 'event'; event: ReporterEvent }
  | { type: 'progress'; event: ProgressEvent }
  | { type: 'done' }
  /** The suite itself could not be loaded (network, a broken build): not the learner's fault. */
  | { type: 'failed'; message: string }
  /** Start a "child process" for the suite, or stop one (child-host.ts). */
  | { type: 'child-start'; child: number; job: ChildJob }
  | { type: 'child-kill'; child: number };

export const isChildReply = (m: PageMessage): m is ChildReply => 'type' in m && (m.type === 'child-message' || m.type === 'child-error');
