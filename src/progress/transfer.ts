/**
 * Moving progress to another browser: a JSON file holding the progress and the saved exercise code,
 * read back with validation, merged with what is already here, and previewed before anything is
 * written. Pure: the page does the file picking and the confirming.
 */
import { z } from 'zod/mini'; // in the browser: see schema.ts
import { savedCodeSchema, type SavedCode } from '../storage/saved-code.ts';
import { currentProgress } from './migrate.ts';
import { isoTime, itemId, progressSchema, type ExerciseResult, type Progress, type QuizAttempt } from './schema.ts';

export const PROGRESS_FILE_FORMAT = 'course-progress';
export const PROGRESS_FILE_VERSION = 1;
/** Progress files are small; anything bigger is not one of ours. */
export const MAX_PROGRESS_FILE_BYTES = 2_000_000;

export const progressFileSchema = z.strictObject({
  format: z.literal(PROGRESS_FILE_FORMAT),
  version: z.literal(PROGRESS_FILE_VERSION),
  exportedAt: isoTime,
  progress: progressSchema,
  code: z.record(itemId, savedCodeSchema),
});
export type ProgressFile = z.infer<typeof progressFileSchema>;
export type SavedCodeMap = Record<string, SavedCode>;

export function buildProgressFile(progress: Progress, code: SavedCodeMap, now: Date = new Date()): ProgressFile {
  return { format: PROGRESS_FILE_FORMAT, version: PROGRESS_FILE_VERSION, exportedAt: now.toISOString(), progress, code };
}

export type FileProblem =
  | { kind: 'too-big' }
  | { kind: 'not-json' }
  | { kind: 'wrong-format' }
  | { kind: 'wrong-version'; version: unknown }
  /** Valid JSON of our format whose content does not hold together (hand-edited, truncated…). */
  | { kind: 'invalid'; where: string };

export type ParsedFile = { ok: true; file: ProgressFile } | { ok: false; problem: FileProblem };

export function parseProgressFile(text: string): ParsedFile {
  if (new TextEncoder().encode(text).length > MAX_PROGRESS_FILE_BYTES) return { ok: false, problem: { kind: 'too-big' } };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { ok: false, problem: { kind: 'not-json' } };
  }
  const head = data as { format?: unknown; version?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== PROGRESS_FILE_FORMAT) return { ok: false, problem: { kind: 'wrong-format' } };
  if (head.version !== PROGRESS_FILE_VERSION) return { ok: false, problem: { kind: 'wrong-version', version: head.version } };
  // A file exported before labs were recorded holds version 1 progress: upgraded, nothing lost.
  const progress = currentProgress((head as { progress?: unknown }).progress);
  const parsed = progressFileSchema.safeParse(progress ? { ...head, progress } : data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, problem: { kind: 'invalid', where: issue ? issue.path.join('.') || '(root)' : '(root)' } };
  }
  return { ok: true, file: parsed.data };
}

const later = <T extends { at: string }>(a: T, b: T) => (Date.parse(b.at) > Date.parse(a.at) ? b : a);
const quizBest = (a: QuizAttempt, b: QuizAttempt) => (b.score / b.total > a.score / a.total ? b : a);
function exerciseBest(a: ExerciseResult, b: ExerciseResult): ExerciseResult {
  const pass = (r: ExerciseResult) => (r.status === 'pass' ? 1 : 0);
  if (pass(a) !== pass(b)) return pass(b) > pass(a) ? b : a;
  return (b.total ? b.passed / b.total : 0) > (a.total ? a.passed / a.total : 0) ? b : a;
}

/**
 * Both sides' progress combined, losing nothing: the later decision about a lesson, the best and the
 * latest result of each exercise and quiz, the most attempts either side has seen, every solution
 * revealed, every lab and every assignment opened on either side.
 */
export function mergeProgress(local: Progress, incoming: Progress): Progress {
  const out: Progress = structuredClone(local);
  for (const [id, entry] of Object.entries(incoming.lessons)) {
    const mine = out.lessons[id];
    out.lessons[id] = mine ? later(mine, entry) : entry;
  }
  for (const [id, entry] of Object.entries(incoming.quizzes)) {
    const mine = out.quizzes[id];
    out.quizzes[id] = mine
      ? { attempts: Math.max(mine.attempts, entry.attempts), best: quizBest(mine.best, entry.best), last: later(mine.last, entry.last) }
      : entry;
  }
  for (const [id, entry] of Object.entries(incoming.exercises)) {
    const mine = out.exercises[id];
    out.exercises[id] = mine
      ? {
          attempts: Math.max(mine.attempts, entry.attempts),
          passed: mine.passed || entry.passed,
          best: exerciseBest(mine.best, entry.best),
          last: later(mine.last, entry.last),
        }
      : entry;
  }
  if (incoming.lastLesson) out.lastLesson = out.lastLesson ? later(out.lastLesson, incoming.lastLesson) : incoming.lastLesson;
  // A solution revealed on either machine was revealed: the first time counts.
  for (const [id, at] of Object.entries(incoming.solutionsShown ?? {})) {
    const mine = out.solutionsShown?.[id];
    out.solutionsShown = { ...out.solutionsShown, [id]: mine && Date.parse(mine) <= Date.parse(at) ? mine : at };
  }
  // A lab opened on either machine was opened: the first time counts.
  for (const [id, entry] of Object.entries(incoming.labs)) {
    const mine = out.labs[id];
    out.labs[id] = mine && Date.parse(mine.openedAt) <= Date.parse(entry.openedAt) ? mine : entry;
  }
  // Assignments opened on either machine; the one here keeps its link, the first opening its date.
  for (const [id, entry] of Object.entries(incoming.assignments ?? {})) {
    const mine = out.assignments?.[id];
    const openedAt = mine && Date.parse(mine.openedAt) <= Date.parse(entry.openedAt) ? mine.openedAt : entry.openedAt;
    out.assignments = { ...out.assignments, [id]: { fragment: mine?.fragment ?? entry.fragment, openedAt } };
  }
  return out;
}

/** Saved code: the newer copy of each exercise wins. */
export function mergeCode(local: SavedCodeMap, incoming: SavedCodeMap): { merged: SavedCodeMap; added: string[]; replaced: string[] } {
  const merged = { ...local };
  const added: string[] = [];
  const replaced: string[] = [];
  for (const [id, code] of Object.entries(incoming)) {
    const mine = local[id];
    if (!mine) {
      merged[id] = code;
      added.push(id);
    } else if (Date.parse(code.savedAt) > Date.parse(mine.savedAt) && JSON.stringify(code.files) !== JSON.stringify(mine.files)) {
      merged[id] = code;
      replaced.push(id);
    }
  }
  return { merged, added, replaced };
}

export interface ImportPreview {
  /** Lessons that become read, or stop being read (a later "not done" on the other machine). */
  lessonsRead: string[];
  lessonsUnread: string[];
  /** Quizzes whose best score changes (`from` undefined: never taken here). */
  quizzes: { id: string; from?: { score: number; total: number }; to: { score: number; total: number } }[];
  exercises: { id: string; fromPassed?: boolean; toPassed: boolean; attempts: number }[];
  codeAdded: string[];
  codeReplaced: string[];
  /** True when importing would change nothing. */
  unchanged: boolean;
}

export function previewImport(
  local: Progress,
  localCode: SavedCodeMap,
  file: ProgressFile,
): { progress: Progress; code: SavedCodeMap; preview: ImportPreview } {
  const progress = mergeProgress(local, file.progress);
  const { merged: code, added: codeAdded, replaced: codeReplaced } = mergeCode(localCode, file.code);
  const lessonsRead = Object.keys(progress.lessons)
    .filter((id) => progress.lessons[id]!.read && !local.lessons[id]?.read)
    .sort();
  const lessonsUnread = Object.keys(progress.lessons)
    .filter((id) => !progress.lessons[id]!.read && local.lessons[id]?.read)
    .sort();
  const quizzes = Object.entries(progress.quizzes)
    .filter(([id, q]) => JSON.stringify(q) !== JSON.stringify(local.quizzes[id]))
    .map(([id, q]) => {
      const before = local.quizzes[id]?.best;
      return { id, ...(before ? { from: { score: before.score, total: before.total } } : {}), to: { score: q.best.score, total: q.best.total } };
    });
  const exercises = Object.entries(progress.exercises)
    .filter(([id, e]) => JSON.stringify(e) !== JSON.stringify(local.exercises[id]))
    .map(([id, e]) => {
      const before = local.exercises[id];
      return { id, ...(before ? { fromPassed: before.passed } : {}), toPassed: e.passed, attempts: e.attempts };
    });
  const unchanged = JSON.stringify(progress) === JSON.stringify(local) && codeAdded.length === 0 && codeReplaced.length === 0;
  return { progress, code, preview: { lessonsRead, lessonsUnread, quizzes, exercises, codeAdded, codeReplaced, unchanged } };
}
