/**
 * The learner's progress: read once, changed through a few verbs, written back after every change.
 * Works on any KeyValueStore (localStorage in the browser, a MemoryStore in tests). Never throws on
 * bad stored data: it is set aside under a backup key and a notice is left for the page to show.
 */
import type { KeyValueStore } from '../storage/key-value-store.ts';
import type { ExerciseGradedDetail } from './exercise-events.ts';
import type { QuizScoredDetail } from '../quiz/index.ts';
import { readStoredProgress, type ReadProblem } from './migrate.ts';
import {
  answerSchema,
  assignmentKey,
  MAX_REMEMBERED_ASSIGNMENTS,
  rememberedAssignmentSchema,
  exerciseResultSchema,
  itemId,
  lessonId as lessonIdSchema,
  PROGRESS_KEY,
  quizAttemptSchema,
  type ExerciseResult,
  type Progress,
  type QuizAttempt,
} from './schema.ts';

export const BACKUP_PREFIX = `${PROGRESS_KEY}.backup.`;
export const NOTICE_KEY = `${PROGRESS_KEY}.notice`;

/** What the page tells the learner after stored progress could not be read as is. */
export type ProgressNotice = ReadProblem & { backupKey: string; at: string };

/** Ranks results so "best" means: passing first, then more tests passed. */
function betterExercise(a: ExerciseResult, b: ExerciseResult): boolean {
  const rank = (r: ExerciseResult) => (r.status === 'pass' ? 1 : 0);
  if (rank(a) !== rank(b)) return rank(a) > rank(b);
  const ratio = (r: ExerciseResult) => (r.total ? r.passed / r.total : 0);
  return ratio(a) > ratio(b);
}

/** A higher score wins; an equal one replaces the old best, so its answers are the latest. */
const betterQuiz = (a: QuizAttempt, b: QuizAttempt) => a.score / a.total >= b.score / b.total;

export class ProgressStore {
  readonly #store: KeyValueStore;
  readonly #clock: () => Date;
  #progress: Progress;
  #listeners = new Set<(p: Progress) => void>();
  /** False once a write failed (quota, storage switched off): progress then lives in memory only. */
  saved = true;

  constructor(store: KeyValueStore, clock: () => Date = () => new Date()) {
    this.#store = store;
    this.#clock = clock;
    this.#progress = this.#read();
  }

  get progress(): Progress {
    return this.#progress;
  }

  /** Reads the stored value, setting aside anything that could not be kept as is. */
  #read(): Progress {
    let raw: string | null = null;
    try {
      raw = this.#store.getItem(PROGRESS_KEY);
    } catch {
      return this.#progress ?? readStoredProgress(null).progress;
    }
    const { progress, problem } = readStoredProgress(raw, this.#clock());
    if (problem && raw !== null) {
      const at = this.#clock().toISOString();
      const backupKey = `${BACKUP_PREFIX}${at}`;
      try {
        this.#store.setItem(backupKey, raw);
        this.#store.setItem(NOTICE_KEY, JSON.stringify({ ...problem, backupKey, at } satisfies ProgressNotice));
        // Only replace the stored value once its original is safely aside.
        this.#store.setItem(PROGRESS_KEY, JSON.stringify(progress));
      } catch {
        this.saved = false;
      }
    }
    return progress;
  }

  #write() {
    try {
      this.#store.setItem(PROGRESS_KEY, JSON.stringify(this.#progress));
    } catch {
      this.saved = false;
    }
    for (const listener of this.#listeners) listener(this.#progress);
  }

  /** Re-reads storage first, so a change made in another tab is not overwritten. */
  #change(edit: (p: Progress, now: string) => void) {
    // After a failed write the stored value is stale: the copy in memory is the truth.
    if (this.saved) this.#progress = this.#read();
    edit(this.#progress, this.#clock().toISOString());
    this.#write();
  }

  /** Called when another tab changed the stored value. */
  reload() {
    this.#progress = this.#read();
    for (const listener of this.#listeners) listener(this.#progress);
  }

  subscribe(listener: (p: Progress) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  isLessonRead(lessonId: string): boolean {
    return this.#progress.lessons[lessonId]?.read === true;
  }

  /** The button: marks or unmarks; an unmark is remembered so scrolling does not undo it. */
  setLessonRead(lessonId: string, read: boolean) {
    // Only what the schema accepts is ever stored, so the next read never has to migrate our own writes.
    if (!lessonIdSchema.safeParse(lessonId).success) return;
    this.#change((p, at) => {
      p.lessons[lessonId] = { read, at, by: 'button' };
    });
  }

  /** Reaching the end of a lesson marks it read, unless the learner already decided either way. */
  autoMarkLesson(lessonId: string): boolean {
    if (!lessonIdSchema.safeParse(lessonId).success || this.#read().lessons[lessonId]) return false;
    this.#change((p, at) => {
      p.lessons[lessonId] = { read: true, at, by: 'scroll' };
    });
    return true;
  }

  openLesson(lessonId: string) {
    if (!lessonIdSchema.safeParse(lessonId).success) return;
    this.#change((p, at) => {
      p.lastLesson = { lessonId, at };
    });
  }

  recordQuiz(detail: QuizScoredDetail) {
    if (!itemId.safeParse(detail?.quizId).success) return;
    // Answers the schema does not know are left out rather than poisoning the stored value.
    const answers = Object.fromEntries(
      Object.entries(detail.answers ?? {}).flatMap(([q, a]) => {
        const parsed = answerSchema.safeParse(a);
        return parsed.success ? [[q, parsed.data]] : [];
      }),
    );
    const attempt = quizAttemptSchema.safeParse({ score: detail.score, total: detail.total, answers, at: this.#clock().toISOString() });
    if (!attempt.success) return;
    this.#change((p) => {
      const next: QuizAttempt = attempt.data;
      const old = p.quizzes[detail.quizId];
      p.quizzes[detail.quizId] = old
        ? { attempts: old.attempts + 1, last: next, best: betterQuiz(next, old.best) ? next : old.best }
        : { attempts: 1, last: next, best: next };
    });
  }

  recordExercise(detail: ExerciseGradedDetail) {
    if (!itemId.safeParse(detail?.exerciseId).success) return;
    const parsed = exerciseResultSchema.safeParse({
      status: detail.status,
      passed: detail.passed,
      total: detail.total,
      runner: detail.runner,
      at: this.#clock().toISOString(),
    });
    if (!parsed.success) return;
    this.#change((p) => {
      const result: ExerciseResult = parsed.data;
      const old = p.exercises[detail.exerciseId];
      p.exercises[detail.exerciseId] = old
        ? {
            attempts: old.attempts + 1,
            passed: old.passed || result.status === 'pass',
            last: result,
            best: betterExercise(result, old.best) ? result : old.best,
          }
        : { attempts: 1, passed: result.status === 'pass', last: result, best: result };
    });
  }

  isLabOpened(labId: string): boolean {
    return this.#progress.labs[labId] !== undefined;
  }

  /** Notes that the learner opened a lab (the first time counts). */
  recordLabOpened(labId: string) {
    if (!itemId.safeParse(labId).success || this.#read().labs[labId]) return;
    this.#change((p, at) => {
      p.labs[labId] = { openedAt: p.labs[labId]?.openedAt ?? at };
    });
  }

  /** Notes that the learner revealed an exercise's reference solution (the first time counts). */
  recordSolutionShown(exerciseId: string) {
    if (!itemId.safeParse(exerciseId).success) return;
    const at = this.#clock().toISOString();
    this.#change((p) => {
      p.solutionsShown = { ...p.solutionsShown, [exerciseId]: p.solutionsShown?.[exerciseId] ?? at };
    });
  }

  /**
   * Remembers an assignment the learner opened (its id and link fragment, already validated by the
   * page). Opening it again keeps the first date; past the cap the oldest opened is forgotten.
   */
  rememberAssignment(id: string, fragment: string) {
    const entry = rememberedAssignmentSchema.safeParse({ fragment, openedAt: this.#clock().toISOString() });
    if (!assignmentKey.safeParse(id).success || !entry.success) return;
    const known = this.#progress.assignments?.[id];
    if (known?.fragment === fragment) return;
    this.#change((p) => {
      const all = { ...p.assignments, [id]: { fragment, openedAt: p.assignments?.[id]?.openedAt ?? entry.data.openedAt } };
      const oldestFirst = Object.entries(all).sort(([, a], [, b]) => Date.parse(a.openedAt) - Date.parse(b.openedAt));
      p.assignments = Object.fromEntries(oldestFirst.slice(-MAX_REMEMBERED_ASSIGNMENTS));
    });
  }

  /** Forgets an assignment (the learner's "remove" on the progress page). */
  forgetAssignment(id: string) {
    if (!this.#progress.assignments?.[id]) return;
    this.#change((p) => {
      const { [id]: _gone, ...rest } = p.assignments ?? {};
      p.assignments = rest;
    });
  }

  /** Replaces everything (an import the learner confirmed). */
  replace(progress: Progress) {
    this.#progress = structuredClone(progress);
    this.#write();
  }

  notice(): ProgressNotice | undefined {
    try {
      const raw = this.#store.getItem(NOTICE_KEY);
      return raw ? (JSON.parse(raw) as ProgressNotice) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Hides the notice; the backup stays where it is. */
  dismissNotice() {
    try {
      this.#store.removeItem(NOTICE_KEY);
    } catch {
      // nothing to do: the notice goes away with the page
    }
  }
}
