/**
 * Reading one learner's submission file and deciding whether it can be graded for this assignment.
 * Pure: the caller hands in the file's size and a way to read it, so an oversized file is refused
 * before a byte of it is parsed. Every refusal carries a reason an instructor can act on.
 */
import {
  FORMAT_VERSION,
  MAX_SUBMISSION_BYTES,
  SUBMISSION_FORMAT,
  learnerSchema,
  submissionFileName,
  submissionSchema,
  type Assignment,
  type Learner,
  type Submission,
} from '../assignments/format.ts';
// The refusal quotes zod's message for the first issue, in English as always.
import '../i18n/zod-english.ts';
import type { Message } from './messages.ts';

/** What grading needs to know about each assigned exercise: the files a learner may hand in. */
export interface AssignedExercise {
  editable: string[];
}

export interface SubmissionFile {
  /** The file's name inside the submissions folder. */
  name: string;
  size: number;
  read: () => string;
}

export interface Rejected {
  file: string;
  /** The learner, when the file says who it is from (a damaged file may not). */
  learner?: Learner;
  reason: Message;
}

export type Loaded = { ok: true; file: string; submission: Submission } | { ok: false; rejected: Rejected };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function firstLine(text: string, max = 160): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function loadSubmission(file: SubmissionFile, assignment: Assignment, exercises: Record<string, AssignedExercise>): Loaded {
  const reject = (key: Message['key'], params: Message['params'] = {}, learner?: Learner): Loaded => ({
    ok: false,
    rejected: { file: file.name, ...(learner ? { learner } : {}), reason: { key, params } },
  });
  if (file.size > MAX_SUBMISSION_BYTES) return reject('reject.tooBig', { size: file.size, max: MAX_SUBMISSION_BYTES });

  let data: unknown;
  try {
    data = JSON.parse(file.read());
  } catch (error) {
    return reject('reject.notJson', { detail: firstLine((error as Error).message) });
  }
  if (!isRecord(data) || data['format'] !== SUBMISSION_FORMAT) {
    return reject('reject.notSubmission', { format: isRecord(data) ? String(data['format'] ?? '') : typeof data });
  }
  const learnerParse = learnerSchema.safeParse(data['learner']);
  const learner = learnerParse.success ? learnerParse.data : undefined;
  if (data['version'] !== FORMAT_VERSION) return reject('reject.badVersion', { version: String(data['version']) }, learner);

  // Said before the schema does, because a path in a file name is the one refusal worth naming exactly.
  if (isRecord(data['exercises'])) {
    for (const [exercise, entry] of Object.entries(data['exercises'])) {
      if (!isRecord(entry) || !isRecord(entry['files'])) continue;
      for (const name of Object.keys(entry['files'])) {
        if (!submissionFileName.safeParse(name).success) return reject('reject.badFileName', { exercise, file: JSON.stringify(name) }, learner);
      }
    }
  }

  const parsed = submissionSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const where = issue.path.map(String).join('.');
    return reject('reject.invalid', { detail: firstLine(where ? `${where}: ${issue.message}` : issue.message) }, learner);
  }
  const submission = parsed.data;
  if (submission.assignmentId !== assignment.id) {
    return reject('reject.wrongAssignment', { got: submission.assignmentId, expected: assignment.id }, submission.learner);
  }
  for (const id of Object.keys(submission.exercises)) {
    if (!assignment.exercises.includes(id) || !exercises[id]) return reject('reject.unknownExercise', { id }, submission.learner);
  }
  for (const id of Object.keys(submission.quizzes)) {
    if (!assignment.quizzes.includes(id)) return reject('reject.unknownQuiz', { id }, submission.learner);
  }
  for (const [id, { files }] of Object.entries(submission.exercises)) {
    const editable = exercises[id]!.editable;
    for (const name of Object.keys(files)) {
      if (!editable.includes(name)) return reject('reject.extraFile', { exercise: id, file: name, expected: editable.join(', ') }, submission.learner);
    }
    for (const name of editable) {
      if (!(name in files)) return reject('reject.missingFile', { exercise: id, file: name }, submission.learner);
    }
  }
  return { ok: true, file: file.name, submission };
}

export const learnerKey = (learner: Learner) => learner.email.trim().toLowerCase();

/**
 * One learner, one graded submission: when an e-mail address (case-insensitive) appears in several
 * files, the latest export is graded and the others are set aside with a reason naming the one kept.
 * A tie on the export time keeps the file whose name sorts last, so the choice never depends on disk order.
 */
export function keepLatestPerLearner(loaded: Array<{ file: string; submission: Submission }>): {
  kept: Array<{ file: string; submission: Submission }>;
  superseded: Rejected[];
} {
  const byLearner = new Map<string, Array<{ file: string; submission: Submission }>>();
  for (const item of loaded) {
    const key = learnerKey(item.submission.learner);
    byLearner.set(key, [...(byLearner.get(key) ?? []), item]);
  }
  const kept: Array<{ file: string; submission: Submission }> = [];
  const superseded: Rejected[] = [];
  for (const items of byLearner.values()) {
    const sorted = [...items].sort(
      (a, b) => Date.parse(a.submission.exportedAt) - Date.parse(b.submission.exportedAt) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
    );
    const latest = sorted.at(-1)!;
    kept.push(latest);
    for (const older of sorted.slice(0, -1)) {
      superseded.push({
        file: older.file,
        learner: older.submission.learner,
        reason: {
          key: 'reject.duplicate',
          params: { email: older.submission.learner.email, kept: latest.file, keptAt: latest.submission.exportedAt },
        },
      });
    }
  }
  const order = new Map(loaded.map((item, i) => [item.file, i]));
  kept.sort((a, b) => order.get(a.file)! - order.get(b.file)!);
  return { kept, superseded };
}
