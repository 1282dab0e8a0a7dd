/**
 * Runs on every page: records quiz and exercise results, remembers the lesson being read, paints the
 * progress marks (sidebar, lesson status, module cards, "continue"), shows the notice about stored
 * progress that could not be read, and drives the "Mark as complete" control at the end of a lesson.
 */
import { pageProgress } from './browser-store.ts';
import { listenForResults } from './listen.ts';
import { PROGRESS_KEY, type Progress } from './schema.ts';
import { NOTICE_KEY, type ProgressStore } from './store.ts';
import { fill, readStrings, type Strings } from './strings.ts';

/** How long the end of a lesson must stay on screen before it counts as read (a fast scroll past does not). */
const END_DWELL_MS = 800;

function paintMarks(p: Progress, s: Strings) {
  for (const mark of document.querySelectorAll<HTMLElement>('[data-progress-for]')) {
    const done = p.lessons[mark.dataset.progressFor!]?.read === true;
    if (done) mark.dataset.state = 'done';
    else delete mark.dataset.state;
    // The dot is decoration; screen readers get the words.
    let said = mark.nextElementSibling as HTMLElement | null;
    if (!said?.matches('[data-progress-said]')) {
      said = document.createElement('span');
      said.className = 'visually-hidden';
      said.dataset.progressSaid = '';
      mark.after(said);
    }
    said.textContent = done ? ` (${s['progress.lessonDone']})` : '';
  }
  for (const el of document.querySelectorAll<HTMLElement>('[data-progress-status]')) {
    const done = p.lessons[el.dataset.progressStatus!]?.read === true;
    el.dataset.state = done ? 'done' : 'todo';
    el.textContent = done ? s['progress.lessonDone']! : s['lesson.progressNotStarted']!;
  }
  for (const el of document.querySelectorAll<HTMLElement>('[data-progress-module]')) {
    const lessons = (el.dataset.lessons ?? '').split(' ').filter(Boolean);
    const exercises = (el.dataset.exercises ?? '').split(' ').filter(Boolean);
    const parts = [fill(s['progress.moduleLessons'], { done: lessons.filter((id) => p.lessons[id]?.read).length, total: lessons.length })];
    const quiz = el.dataset.quiz ? p.quizzes[el.dataset.quiz]?.best : undefined;
    if (quiz) parts.push(fill(s['progress.moduleQuiz'], { score: quiz.score, total: quiz.total }));
    if (exercises.length)
      parts.push(fill(s['progress.moduleExercises'], { done: exercises.filter((id) => p.exercises[id]?.passed).length, total: exercises.length }));
    el.textContent = parts.join(' · ');
  }
  const resume = document.querySelector<HTMLElement>('[data-progress-continue]');
  if (resume) {
    const id = p.lastLesson?.lessonId;
    const target = id ? document.querySelector<HTMLAnchorElement>(`a[data-lesson-id="${CSS.escape(id)}"]`) : null;
    const link = resume.querySelector<HTMLAnchorElement>('a')!;
    if (target) {
      link.href = target.getAttribute('href')!;
      link.textContent = fill(s['progress.continueLesson'], { title: target.textContent!.trim() });
      resume.hidden = false;
    } else resume.hidden = true;
  }
}

function showNotice(store: ProgressStore, persistent: boolean, root: HTMLElement, s: Strings) {
  const text = root.querySelector<HTMLElement>('[data-notice-text]')!;
  const notice = store.notice();
  if (notice) {
    const key = { unreadable: 'progress.noticeUnreadable', migrated: 'progress.noticeMigrated', newer: 'progress.noticeNewer' }[notice.kind];
    text.textContent = fill(s[key], { ...notice, backupKey: notice.backupKey });
  } else if (!persistent) {
    text.textContent = s['progress.notSaved']!;
  } else {
    root.hidden = true;
    return;
  }
  root.hidden = false;
  root.querySelector<HTMLButtonElement>('[data-notice-dismiss]')!.onclick = () => {
    store.dismissNotice();
    root.hidden = true;
  };
}

function enhanceCompletion(store: ProgressStore, s: Strings) {
  const box = document.querySelector<HTMLElement>('[data-lesson-complete]');
  if (!box) return;
  const lessonId = box.dataset.lessonComplete!;
  const button = box.querySelector<HTMLButtonElement>('[data-complete-toggle]')!;
  const status = box.querySelector<HTMLElement>('[data-complete-status]')!;
  const render = () => {
    const done = store.isLessonRead(lessonId);
    box.dataset.state = done ? 'done' : 'todo';
    button.textContent = done ? s['progress.markIncomplete']! : s['progress.markComplete']!;
    status.textContent = done ? s['progress.completeStatus']! : s['progress.incompleteStatus']!;
  };
  box.hidden = false;
  render();
  store.subscribe(render);
  button.addEventListener('click', () => store.setLessonRead(lessonId, !store.isLessonRead(lessonId)));

  let timer: ReturnType<typeof setTimeout> | undefined;
  const observer = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) {
      timer ??= setTimeout(() => {
        store.autoMarkLesson(lessonId);
        observer.disconnect();
      }, END_DWELL_MS);
    } else {
      clearTimeout(timer);
      timer = undefined;
    }
  });
  observer.observe(box);
}

export function bootProgress() {
  const root = document.querySelector<HTMLElement>('[data-progress-notice]');
  const s = readStrings(root);
  const { store, persistent } = pageProgress();
  listenForResults(store);
  const lessonId = document.querySelector<HTMLElement>('main[data-lesson]')?.dataset.lesson;
  if (lessonId) store.openLesson(lessonId);
  paintMarks(store.progress, s);
  store.subscribe((p) => paintMarks(p, s));
  if (root) showNotice(store, persistent, root, s);
  enhanceCompletion(store, s);
  // Another tab changed progress: show it here too.
  window.addEventListener('storage', (event: StorageEvent) => {
    if (event.key === PROGRESS_KEY) store.reload();
    if (event.key === NOTICE_KEY && root) showNotice(store, persistent, root, s);
  });
}
