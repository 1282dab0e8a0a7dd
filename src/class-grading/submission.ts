/**
 * Reading one learner's submission file and deciding whether it can be graded for this assignment.
 * Pure: the caller hands in the file's size and a way to read it, so an oversized file is refused
 * before a byte of it is parsed. Every refusal carries a reason an instructor can act on, and no
 * reason quotes bytes of the file: only values the format has already validated (ids, plain file
 * names), positions and fixed words, so a hostile file cannot write into the gradebook or report.
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
} from '../assignments/index.ts';
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
  /** The text; may throw an `UnreadableSubmission` (not a regular file, no permission...). */
  read: () => string;
}

/** Why a file could not be read: the file system's answer, never the file's content. */
export class UnreadableSubmission extends Error {
  override name = 'UnreadableSubmission';
  constructor(readonly reason: Message) {
    super(reason.key);
  }
}

export interface Rejected {
  file: string;
  /** The learner, when the file says who it is from (a damaged file may not). */
  learner?: Learner;
  reason: Message;
}

export type Loaded = { ok: true; file: string; submission: Submission } | { ok: false; rejected: Rejected };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A word from the file shown only when it is plainly an identifier; anything else is shown as `?`. */
const SAFE_WORD = /^[A-Za-z0-9._-]{1,64}$/;
const safeWord = (value: unknown) =>
  (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && SAFE_WORD.test(value)) ? String(value) : '?';

/** Where JSON.parse stopped (V8 says "at position N" or "end of JSON input"), not the text V8 quotes around it. */
function jsonErrorPosition(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : '';
  if (/end of JSON input/.test(message)) return String(text.length);
  return /position (\d+)/.exec(message)?.[1] ?? '?';
}

/** A schema issue by its path and kind: zod's messages can quote the file's keys and values. */
function issueText(issue: { path: PropertyKey[]; code: string; expected?: unknown }): string {
  const where = issue.path.map(safeWord).join('.');
  const what = issue.code === 'invalid_type' ? `expected ${safeWord(issue.expected)}` : issue.code.replace(/_/g, ' ');
  return where ? `${where}: ${what}` : what;
}

/**
 * Never throws: whatever a file holds (nesting thousands deep, odd types), the worst outcome is that
 * file's own refusal, so one file cannot stop a whole class's grading.
 */
export function loadSubmission(file: SubmissionFile, assignment: Assignment, exercises: Record<string, AssignedExercise>): Loaded {
  try {
    return checkSubmission(file, assignment, exercises);
  } catch (error) {
    const reason: Message =
      error instanceof UnreadableSubmission ? error.reason : { key: 'reject.crashed', params: { error: error instanceof Error ? safeWord(error.name) : '?' } };
    return { ok: false, rejected: { file: file.name, reason } };
  }
}

function checkSubmission(file: SubmissionFile, assignment: Assignment, exercises: Record<string, AssignedExercise>): Loaded {
  const reject = (key: Message['key'], params: Message['params'] = {}, learner?: Learner): Loaded => ({
    ok: false,
    rejected: { file: file.name, ...(learner ? { learner } : {}), reason: { key, params } },
  });
  if (file.size > MAX_SUBMISSION_BYTES) return reject('reject.tooBig', { size: file.size, max: MAX_SUBMISSION_BYTES });

  const text = file.read(); // its errors are the file system's: loadSubmission turns them into the refusal
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return reject('reject.notJson', { position: jsonErrorPosition(error, text) });
  }
  if (!isRecord(data) || data['format'] !== SUBMISSION_FORMAT) return reject('reject.notSubmission');
  const learnerParse = learnerSchema.safeParse(data['learner']);
  const learner = learnerParse.success ? learnerParse.data : undefined;
  if (data['version'] !== FORMAT_VERSION) return reject('reject.badVersion', { version: safeWord(data['version']) }, learner);

  // Said before the schema does, because a path in a file name is the one refusal worth naming exactly.
  if (isRecord(data['exercises'])) {
    for (const [exercise, entry] of Object.entries(data['exercises'])) {
      if (!isRecord(entry) || !isRecord(entry['files'])) continue;
      for (const name of Object.keys(entry['files'])) {
        if (!submissionFileName.safeParse(name).success) return reject('reject.badFileName', { exercise: safeWord(exercise) }, learner);
      }
    }
  }

  const parsed = submissionSchema.safeParse(data);
  if (!parsed.success) {
    return reject('reject.invalid', { detail: issueText(parsed.error.issues[0]!) }, learner);
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
 * The files that claim the same learner (e-mail, case-insensitive) as another file: each file with the
 * other files' names. By default all of them are graded and shown as a conflict for the instructor to
 * decide, because a later export is no proof of who wrote it: anyone can type a classmate's address.
 */
export function sharedClaims(loaded: Array<{ file: string; submission: Submission }>): Map<string, string[]> {
  const byLearner = new Map<string, string[]>();
  for (const item of loaded) {
    const key = learnerKey(item.submission.learner);
    byLearner.set(key, [...(byLearner.get(key) ?? []), item.file]);
  }
  const out = new Map<string, string[]>();
  for (const files of byLearner.values()) {
    if (files.length < 2) continue;
    for (const file of files) out.set(file, files.filter((f) => f !== file).sort());
  }
  return out;
}

/**
 * `--latest-wins` only. One learner, one graded submission: when an e-mail address (case-insensitive) appears in several
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
