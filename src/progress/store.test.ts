import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../storage/key-value-store.ts';
import { BACKUP_PREFIX, NOTICE_KEY, ProgressStore } from './store.ts';
import { PROGRESS_KEY, progressSchema } from './schema.ts';
import { reportQuizScore } from '../quiz/events.ts';
import { reportExerciseGraded, reportLabOpened, reportSolutionShown } from './exercise-events.ts';
import { listenForResults } from './listen.ts';

const at = (iso: string) => () => new Date(iso);
const stored = (s: MemoryStore) => JSON.parse(s.getItem(PROGRESS_KEY)!);
const backups = (s: MemoryStore) => s.keys().filter((k) => k.startsWith(BACKUP_PREFIX));

describe('the progress store', () => {
  it('starts empty without writing anything or leaving a notice', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s);
    expect(store.progress).toEqual({ version: 2, lessons: {}, exercises: {}, quizzes: {}, labs: {} });
    expect(s.keys()).toEqual([]);
    expect(store.notice()).toBeUndefined();
  });

  it('marks and unmarks a lesson; scrolling to the end does not override the learner’s choice', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s, at('2026-11-29T10:00:00.000Z'));
    expect(store.autoMarkLesson('timeouts/why-timeouts')).toBe(true);
    expect(store.isLessonRead('timeouts/why-timeouts')).toBe(true);
    store.setLessonRead('timeouts/why-timeouts', false);
    expect(store.autoMarkLesson('timeouts/why-timeouts')).toBe(false);
    expect(new ProgressStore(s).isLessonRead('timeouts/why-timeouts')).toBe(false);
    store.setLessonRead('timeouts/why-timeouts', true);
    expect(stored(s).lessons['timeouts/why-timeouts']).toEqual({ read: true, at: '2026-11-29T10:00:00.000Z', by: 'button' });
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('records the first time a lab was opened, from the page event, and nothing that is not a lab id', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s, at('2026-11-29T10:00:00.000Z'));
    const target = new EventTarget();
    listenForResults(store, target);
    expect(store.isLabOpened('amplification')).toBe(false);
    reportLabOpened('amplification', target);
    new ProgressStore(s, at('2026-11-30T10:00:00.000Z')).recordLabOpened('amplification');
    store.recordLabOpened('../evil');
    expect(stored(s).labs).toEqual({ amplification: { openedAt: '2026-11-29T10:00:00.000Z' } });
    expect(new ProgressStore(s).isLabOpened('amplification')).toBe(true);
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('loads progress saved by version 1 (before labs) as it is: nothing lost, no notice, no backup', () => {
    const s = new MemoryStore();
    const v1 = {
      version: 1,
      lessons: { 'timeouts/why-timeouts': { read: true, at: '2026-11-01T10:00:00.000Z', by: 'scroll' } },
      exercises: {},
      quizzes: {
        'timeouts-quiz': {
          attempts: 1,
          best: { score: 5, total: 8, answers: {}, at: '2026-11-01T10:00:00.000Z' },
          last: { score: 5, total: 8, answers: {}, at: '2026-11-01T10:00:00.000Z' },
        },
      },
      lastLesson: { lessonId: 'timeouts/why-timeouts', at: '2026-11-01T10:00:00.000Z' },
      solutionsShown: { 'retry-helper': '2026-11-02T10:00:00.000Z' },
      assignments: { 'week-3': { fragment: 'a=abc', openedAt: '2026-11-03T10:00:00.000Z' } },
    };
    s.setItem(PROGRESS_KEY, JSON.stringify(v1));
    const store = new ProgressStore(s, at('2026-11-29T10:00:00.000Z'));
    expect(store.progress).toEqual({ ...v1, version: 2, labs: {} });
    expect(store.notice()).toBeUndefined();
    expect(backups(s)).toEqual([]);
    // The first change writes it back as version 2, the old entries with it.
    store.recordLabOpened('retry-storm');
    expect(stored(s)).toEqual({ ...v1, version: 2, labs: { 'retry-storm': { openedAt: '2026-11-29T10:00:00.000Z' } } });
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('records the first time a solution was revealed, from the page event', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s, at('2026-11-29T10:00:00.000Z'));
    const target = new EventTarget();
    listenForResults(store, target);
    reportSolutionShown('retry-helper', target);
    new ProgressStore(s, at('2026-11-30T10:00:00.000Z')).recordSolutionShown('retry-helper');
    expect(stored(s).solutionsShown).toEqual({ 'retry-helper': '2026-11-29T10:00:00.000Z' });
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('keeps the best and the last quiz attempt with their answers', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s);
    const answers = { q1: { type: 'single' as const, choice: 'a' } };
    store.recordQuiz({ quizId: 'timeouts-quiz', score: 7, total: 8, answers });
    store.recordQuiz({ quizId: 'timeouts-quiz', score: 3, total: 8, answers: { q1: { type: 'single', choice: 'b' } } });
    const entry = new ProgressStore(s).progress.quizzes['timeouts-quiz']!;
    expect(entry.attempts).toBe(2);
    expect(entry.best).toMatchObject({ score: 7, total: 8, answers });
    expect(entry.last).toMatchObject({ score: 3, answers: { q1: { choice: 'b' } } });
  });

  it('counts exercise attempts, remembers a pass and keeps the best result', () => {
    const store = new ProgressStore(new MemoryStore());
    store.recordExercise({ exerciseId: 'retry-helper', status: 'fail', passed: 10, total: 16, runner: 'webcontainer' });
    store.recordExercise({ exerciseId: 'retry-helper', status: 'pass', passed: 16, total: 16, runner: 'webcontainer' });
    store.recordExercise({ exerciseId: 'retry-helper', status: 'error', passed: 0, total: 0, runner: 'webcontainer' });
    const e = store.progress.exercises['retry-helper']!;
    expect(e).toMatchObject({ attempts: 3, passed: true, best: { status: 'pass', passed: 16 }, last: { status: 'error' } });
  });

  it('ignores an impossible result instead of storing it', () => {
    const store = new ProgressStore(new MemoryStore());
    store.recordQuiz({ quizId: 'timeouts-quiz', score: 9, total: 8, answers: {} });
    store.recordExercise({ exerciseId: 'retry-helper', status: 'pass', passed: 5, total: 3, runner: 'local' });
    expect(store.progress.quizzes).toEqual({});
    expect(store.progress.exercises).toEqual({});
  });

  it('stores only what its schema accepts, so its own writes never need migrating', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s);
    store.setLessonRead('not a lesson', true);
    store.recordExercise({ exerciseId: 'retry-helper', status: 'weird' as 'pass', passed: 1, total: 1, runner: 'webcontainer' });
    store.recordQuiz({ quizId: 'timeouts-quiz', score: 1, total: 2, answers: { q1: { type: 'single', choice: 'a' }, q2: { type: 'essay' } as never } });
    expect(store.progress.lessons).toEqual({});
    expect(store.progress.exercises).toEqual({});
    expect(store.progress.quizzes['timeouts-quiz']?.best.answers).toEqual({ q1: { type: 'single', choice: 'a' } });
    expect(new ProgressStore(s).notice()).toBeUndefined();
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('records the quiz and exercise events dispatched on the page', () => {
    const target = new EventTarget();
    const store = new ProgressStore(new MemoryStore());
    const stop = listenForResults(store, target);
    reportQuizScore({ quizId: 'deadlines-quiz', score: 5, total: 6, answers: {} }, target);
    reportExerciseGraded({ exerciseId: 'deadline-middleware', status: 'pass', passed: 12, total: 12, runner: 'webcontainer' }, target);
    stop();
    reportQuizScore({ quizId: 'hedging-quiz', score: 1, total: 6, answers: {} }, target);
    expect(Object.keys(store.progress.quizzes)).toEqual(['deadlines-quiz']);
    expect(store.progress.exercises['deadline-middleware']?.passed).toBe(true);
  });

  it('sets corrupted JSON aside under a backup key with a notice, and starts afresh', () => {
    const s = new MemoryStore();
    s.setItem(PROGRESS_KEY, '{"version":1,"lessons":{"timeouts/why');
    const store = new ProgressStore(s, at('2026-11-29T10:00:00.000Z'));
    expect(store.progress.lessons).toEqual({});
    expect(backups(s)).toEqual([`${BACKUP_PREFIX}2026-11-29T10:00:00.000Z`]);
    expect(s.getItem(backups(s)[0]!)).toBe('{"version":1,"lessons":{"timeouts/why');
    expect(store.notice()).toMatchObject({ kind: 'unreadable', backupKey: backups(s)[0] });
    // Once dismissed the notice is gone; the backup stays.
    store.dismissNotice();
    expect(new ProgressStore(s).notice()).toBeUndefined();
    expect(s.getItem(NOTICE_KEY)).toBeNull();
    expect(backups(s)).toHaveLength(1);
  });

  it('migrates an older value: keeps what still makes sense and backs up the original', () => {
    const s = new MemoryStore();
    const old = JSON.stringify({
      lessons: ['timeouts/why-timeouts', 'not a lesson id'],
      quizzes: {
        'timeouts-quiz': {
          attempts: 1,
          best: { score: 7, total: 8, answers: {}, at: '2026-11-01T00:00:00.000Z' },
          last: { score: 7, total: 8, answers: {}, at: '2026-11-01T00:00:00.000Z' },
        },
        broken: 3,
      },
    });
    s.setItem(PROGRESS_KEY, old);
    const store = new ProgressStore(s);
    expect(store.isLessonRead('timeouts/why-timeouts')).toBe(true);
    expect(store.progress.quizzes['timeouts-quiz']?.best.score).toBe(7);
    expect(store.notice()).toMatchObject({ kind: 'migrated', kept: 2, dropped: 2 });
    expect(s.getItem(backups(s)[0]!)).toBe(old);
    // The stored value is now current, so the next page does not migrate it again.
    expect(progressSchema.safeParse(stored(s)).success).toBe(true);
  });

  it('sets aside a value written by a newer version rather than guessing at it', () => {
    const s = new MemoryStore();
    s.setItem(PROGRESS_KEY, JSON.stringify({ version: 7, everything: 'different' }));
    const store = new ProgressStore(s);
    expect(store.notice()).toMatchObject({ kind: 'newer', version: 7 });
    expect(backups(s)).toHaveLength(1);
  });

  it('keeps working in memory when storage refuses every call (private mode)', () => {
    const broken = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = new ProgressStore(broken);
    store.setLessonRead('timeouts/why-timeouts', true);
    store.recordQuiz({ quizId: 'timeouts-quiz', score: 1, total: 2, answers: {} });
    expect(store.saved).toBe(false);
    expect(store.isLessonRead('timeouts/why-timeouts')).toBe(true);
    expect(store.progress.quizzes['timeouts-quiz']?.best.score).toBe(1);
    expect(store.notice()).toBeUndefined();
  });

  it('does not overwrite what another tab wrote in between', () => {
    const s = new MemoryStore();
    const tabA = new ProgressStore(s);
    const tabB = new ProgressStore(s);
    tabA.setLessonRead('timeouts/why-timeouts', true);
    tabB.setLessonRead('deadlines/cancellation', true);
    expect(Object.keys(new ProgressStore(s).progress.lessons).sort()).toEqual(['deadlines/cancellation', 'timeouts/why-timeouts']);
  });
});
