/**
 * A learner's submission for an assignment, built from what the browser has: the saved code of each
 * exercise (only the files the exercise has) and the answers of the best attempt at each quiz. Pure.
 */
import type { SavedCode } from '../storage/saved-code.ts';
import type { Progress } from '../progress/schema.ts';
import {
  FORMAT_VERSION,
  MAX_SUBMISSION_BYTES,
  SUBMISSION_FORMAT,
  submissionFileName,
  submissionSchema,
  type Assignment,
  type Learner,
  type Submission,
} from './file-schemas.ts';

export interface SubmissionInput {
  assignment: Assignment;
  learner: Learner;
  progress: Progress;
  savedCode: (exerciseId: string) => SavedCode | undefined;
  /** The files each exercise has (its editable paths); others in the saved code are left out. */
  exerciseFiles: Record<string, string[]>;
  courseVersion: string;
  /** The language of the page the learner exports from: their feedback is written in it. */
  lang?: 'vi' | 'en';
  now?: Date;
}

export interface BuiltSubmission {
  submission: Submission;
  /** Items with nothing to hand in: the learner is warned before exporting. */
  missing: { exercises: string[]; quizzes: string[] };
  json: string;
  tooBig: boolean;
}

/** What each assigned item has so far, for the status column and the warnings. */
export function itemsWithoutWork(assignment: Assignment, progress: Progress, savedCode: (id: string) => SavedCode | undefined) {
  return {
    exercises: assignment.exercises.filter((id) => !savedCode(id) || Object.keys(savedCode(id)!.files).length === 0),
    quizzes: assignment.quizzes.filter((id) => !progress.quizzes[id]),
  };
}

export function buildSubmission(input: SubmissionInput): BuiltSubmission {
  const { assignment, progress, savedCode, exerciseFiles } = input;
  const exercises: Submission['exercises'] = {};
  const clientExercises: Submission['clientResults']['exercises'] = {};
  for (const id of assignment.exercises) {
    const code = savedCode(id);
    const allowed = exerciseFiles[id];
    if (code) {
      const files = Object.fromEntries(
        Object.entries(code.files).filter(([name]) => (allowed ? allowed.includes(name) : submissionFileName.safeParse(name).success)),
      );
      if (Object.keys(files).length > 0) exercises[id] = { files };
    }
    const result = progress.exercises[id]?.best;
    if (result) clientExercises[id] = { ...result };
  }
  const quizzes: Submission['quizzes'] = {};
  const clientQuizzes: Submission['clientResults']['quizzes'] = {};
  for (const id of assignment.quizzes) {
    const entry = progress.quizzes[id];
    if (!entry) continue;
    quizzes[id] = { answers: structuredClone(entry.best.answers) };
    clientQuizzes[id] = { score: entry.best.score, total: entry.best.total, at: entry.best.at };
  }
  const submission: Submission = submissionSchema.parse({
    format: SUBMISSION_FORMAT,
    version: FORMAT_VERSION,
    assignmentId: assignment.id,
    learner: {
      ...input.learner,
      name: input.learner.name.trim(),
      email: input.learner.email.trim(),
    },
    exercises,
    quizzes,
    exportedAt: (input.now ?? new Date()).toISOString(),
    courseVersion: input.courseVersion,
    ...(input.lang ? { lang: input.lang } : {}),
    solutionShown: assignment.exercises.filter((id) => progress.solutionsShown?.[id]),
    clientResults: { exercises: clientExercises, quizzes: clientQuizzes },
  });
  const json = JSON.stringify(submission, null, 2);
  return {
    submission,
    missing: {
      exercises: assignment.exercises.filter((id) => !exercises[id]),
      quizzes: assignment.quizzes.filter((id) => !quizzes[id]),
    },
    json,
    tooBig: new TextEncoder().encode(json).length > MAX_SUBMISSION_BYTES,
  };
}

/** `submission-<assignment>-<name>.json`, safe on every file system. */
export function submissionFileNameFor(assignmentId: string, learner: Learner): string {
  const who =
    learner.email
      .split('@')[0]!
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'learner';
  return `submission-${assignmentId}-${who}.json`;
}
