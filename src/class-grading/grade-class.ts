/**
 * Grading a class: every submission file is checked (bad ones are set aside with a reason, the rest
 * still graded), one graded submission per learner, each exercise re-graded by the hidden suite (the
 * browser's clientResults are never read), each quiz scored. Side effects go through `ClassGradingIO`,
 * so this runs the same against the file system and real sandboxes or against fakes in tests.
 */
import type { Report } from '../grading/index.ts';
import type { Lang } from './messages.ts';
import { isSubmissionLate, scoreQuizzes, type ClassContext, type ExerciseOutcome, type LearnerResult } from './results.ts';
import { keepLatestPerLearner, learnerKey, loadSubmission, sharedClaims, type AssignedExercise, type Rejected } from './submission.ts';
import type { Submission } from '../assignments/index.ts';
import { codeToReview } from './review.ts';
import { fileFlags } from './file-flags.ts';
import type { Flag } from './flags.ts';
import { excerpt, shownLearner } from './neutral.ts';
import { copyFlags } from './similarity.ts';
import { shardOf, type Shard } from './shard.ts';

export interface ClassGradingIO {
  /** The submission files (`*.json`) with their sizes, in a stable order. */
  listSubmissions(): Promise<Array<{ name: string; size: number }>>;
  /** The file's text; throws an `UnreadableSubmission` for a file it will not read (a link, a FIFO...). */
  readSubmission(name: string): string;
  /** Runs an exercise's hidden suite on the learner's files (a fresh sandbox each time); strict grading adds what looked like tampering. */
  gradeExercise(exerciseId: string, files: Record<string, string>, lang: Lang): Promise<Report | StrictlyGraded>;
}

/** A report from strict grading, with what it noticed (see src/grading/node/strict-grade.ts). */
export interface StrictlyGraded {
  report: Report;
  tampering: string[];
  /** The limits of its own workspace a learner's process was stopped at. */
  flags?: Flag[];
}

export type ProgressEvent =
  | { kind: 'graded'; done: number; count: number; result: LearnerResult }
  | { kind: 'rejected'; done: number; count: number; rejected: Rejected };

export interface ClassGrading {
  results: LearnerResult[];
  rejected: Rejected[];
  files: number;
  durationMs: number;
}

export interface GradeClassOptions {
  jobs: number;
  /** Grade only this share of the learners (every file is still read and checked): see shard.ts. */
  shard?: Shard;
  lang: Lang;
  /**
   * Several files for one learner: 'conflict' (the default) grades each and marks them for the
   * instructor; 'latest-wins' grades only the latest export and sets the others aside.
   */
  duplicates?: 'conflict' | 'latest-wins';
  onProgress?: (event: ProgressEvent) => void;
}

export function assignedExercises(ctx: ClassContext): Record<string, AssignedExercise> {
  return Object.fromEntries(ctx.assignment.exercises.map((id) => [id, { editable: ctx.exercises[id]!.files.filter((f) => f.editable).map((f) => f.path) }]));
}

async function gradeLearner(
  ctx: ClassContext,
  io: ClassGradingIO,
  file: string,
  submission: Submission,
  lang: Lang,
  conflictsWith?: string[],
): Promise<LearnerResult> {
  const started = performance.now();
  const exercises: ExerciseOutcome[] = [];
  for (const id of ctx.assignment.exercises) {
    const handedIn = submission.exercises[id];
    if (!handedIn) {
      exercises.push({ id, status: 'missing' });
      continue;
    }
    try {
      const review = codeToReview(handedIn.files);
      const graded = await io.gradeExercise(id, handedIn.files, lang);
      const { report, tampering = [], flags: limits = [] } = 'report' in graded ? graded : { report: graded };
      const flags = [...limits, ...fileFlags(handedIn.files)];
      exercises.push({
        id,
        status: 'graded',
        report,
        ...(review.length ? { review } : {}),
        ...(tampering.length ? { tampering: tampering.map((t) => excerpt(t)) } : {}),
        ...(flags.length ? { flags } : {}),
      });
    } catch (error) {
      exercises.push({ id, status: 'grading-failed', message: excerpt(error instanceof Error ? error.message : String(error)) });
    }
  }
  return {
    file,
    learner: shownLearner(submission.learner),
    exportedAt: submission.exportedAt,
    late: isSubmissionLate(submission, ctx.assignment),
    exercises,
    quizzes: scoreQuizzes(submission, ctx),
    solutionShown: (submission.solutionShown ?? []).filter((id) => ctx.assignment.exercises.includes(id)),
    durationMs: performance.now() - started,
    ...(conflictsWith ? { conflictsWith } : {}),
    ...(submission.lang ? { lang: submission.lang } : {}),
  };
}

/**
 * Each graded exercise compared with the published reference and with every other learner's (all the
 * files read, a shard's learners among them): the copy flags of similarity.ts, added to its outcome.
 */
function addCopyFlags(ctx: ClassContext, kept: Array<{ file: string; submission: Submission }>, results: LearnerResult[]): void {
  for (const id of ctx.assignment.exercises) {
    const compared = kept.flatMap(({ file, submission }) => {
      const files = submission.exercises[id]?.files;
      return files ? [{ key: file, who: shownLearner(submission.learner).email, files }] : [];
    });
    const published = ctx.published?.[id] ?? { reference: {}, starter: {} };
    const found = copyFlags(compared, published);
    for (const r of results) {
      const flags = found.get(r.file);
      const outcome = r.exercises.find((e) => e.id === id);
      if (flags && outcome?.status === 'graded') outcome.flags = [...(outcome.flags ?? []), ...flags];
    }
  }
}

export async function gradeClass(ctx: ClassContext, io: ClassGradingIO, opts: GradeClassOptions): Promise<ClassGrading> {
  const started = performance.now();
  const listed = await io.listSubmissions();
  const count = listed.length;
  let done = 0;
  const rejected: Rejected[] = [];
  const reject = (r: Rejected) => {
    if (r.learner) r = { ...r, learner: shownLearner(r.learner) };
    rejected.push(r);
    opts.onProgress?.({ kind: 'rejected', done: ++done, count, rejected: r });
  };

  const exercises = assignedExercises(ctx);
  const accepted: Array<{ file: string; submission: Submission }> = [];
  for (const { name, size } of listed) {
    const loaded = loadSubmission({ name, size, read: () => io.readSubmission(name) }, ctx.assignment, exercises);
    if (loaded.ok) accepted.push({ file: loaded.file, submission: loaded.submission });
    else reject(loaded.rejected);
  }
  let kept = accepted;
  let claims = new Map<string, string[]>();
  if (opts.duplicates === 'latest-wins') {
    const latest = keepLatestPerLearner(accepted);
    kept = latest.kept;
    latest.superseded.forEach(reject);
  } else claims = sharedClaims(accepted);

  const results: LearnerResult[] = [];
  const shard = opts.shard;
  const queue = shard ? kept.filter((k) => shardOf(learnerKey(k.submission.learner), shard.count) === shard.index) : [...kept];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      let result: LearnerResult;
      try {
        result = await gradeLearner(ctx, io, next.file, next.submission, opts.lang, claims.get(next.file));
      } catch (error) {
        // Not expected (each exercise's failure is caught inside), but one file must never stop the class.
        reject({
          file: next.file,
          learner: next.submission.learner,
          reason: { key: 'reject.crashed', params: { error: error instanceof Error ? error.name : '?' } },
        });
        continue;
      }
      results.push(result);
      opts.onProgress?.({ kind: 'graded', done: ++done, count, result });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.jobs, queue.length)) }, worker));
  const order = new Map(kept.map((k, i) => [k.file, i]));
  results.sort((a, b) => order.get(a.file)! - order.get(b.file)!);
  addCopyFlags(ctx, kept, results);
  return { results, rejected, files: count, durationMs: performance.now() - started };
}
