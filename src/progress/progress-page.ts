/**
 * The progress page: fills in each lesson, quiz and exercise state, and runs export and import
 * (file -> validation -> preview -> confirm -> write). Nothing is written before the learner confirms.
 */
import { savedCodeKey } from '../storage/saved-code.ts';
import { pageProgress } from './browser-store.ts';
import type { Catalog } from './catalog.ts';
import { summarizeCourse } from './catalog.ts';
import { downloadProgress, savedCodeOf } from './export-file.ts';
import type { Progress } from './schema.ts';
import { fill, readStrings, type Strings } from './strings.ts';
import { parseProgressFile, previewImport, type FileProblem, type ImportPreview, type ProgressFile, type SavedCodeMap } from './transfer.ts';

function paint(root: HTMLElement, catalog: Catalog, p: Progress, s: Strings) {
  const c = summarizeCourse(catalog, p);
  root.querySelector('[data-course-summary]')!.textContent = fill(s['progress.courseSummary'], {
    lessons: c.lessonsRead,
    lessonsTotal: c.lessonsTotal,
    quizzes: c.quizzesTaken,
    quizzesTotal: c.quizzesTotal,
    exercises: c.exercisesPassed,
    exercisesTotal: c.exercisesTotal,
  });
  for (const el of root.querySelectorAll<HTMLElement>('[data-quiz-state]')) {
    const q = p.quizzes[el.dataset.quizState!];
    el.dataset.state = q ? 'done' : 'todo';
    el.textContent = q
      ? fill(s['progress.quizScore'], { score: q.best.score, total: q.best.total, lastScore: q.last.score, lastTotal: q.last.total, attempts: q.attempts })
      : s['progress.quizNotTaken']!;
  }
  for (const el of root.querySelectorAll<HTMLElement>('[data-exercise-state]')) {
    const e = p.exercises[el.dataset.exerciseState!];
    el.dataset.state = e?.passed ? 'done' : 'todo';
    const state = !e
      ? s['progress.exerciseNotRun']!
      : fill(s[e.passed ? 'progress.exercisePassed' : 'progress.exerciseNotPassed'], { passed: e.best.passed, total: e.best.total, attempts: e.attempts });
    const shown = p.solutionsShown?.[el.dataset.exerciseState!];
    el.textContent = shown ? fill(s['progress.solutionShown'], { state }) : state;
    if (shown) el.dataset.solutionShown = 'true';
  }
}

function problemText(problem: FileProblem, s: Strings): string {
  switch (problem.kind) {
    case 'too-big':
      return s['progress.errorTooBig']!;
    case 'not-json':
      return s['progress.errorNotJson']!;
    case 'wrong-format':
      return s['progress.errorWrongFormat']!;
    case 'wrong-version':
      return fill(s['progress.errorWrongVersion'], { version: String(problem.version) });
    case 'invalid':
      return fill(s['progress.errorInvalid'], { where: problem.where });
  }
}

/** An import that brings code: the learner is told it will run on this computer when they press Run. */
export const bringsCode = (preview: ImportPreview) => preview.codeAdded.length + preview.codeReplaced.length > 0;

function previewLines(preview: ImportPreview, catalog: Catalog, s: Strings): string[] {
  const title = (kind: 'lessons' | 'quizzes' | 'exercises', id: string) =>
    catalog.modules.flatMap((m) => m[kind] as { id: string; title: string }[]).find((i) => i.id === id)?.title ?? id;
  const list = (kind: 'lessons' | 'exercises', ids: string[]) => ids.map((id) => title(kind, id)).join('; ');
  const lines: string[] = [];
  if (preview.lessonsRead.length) lines.push(fill(s['progress.importLessonsRead'], { list: list('lessons', preview.lessonsRead) }));
  if (preview.lessonsUnread.length) lines.push(fill(s['progress.importLessonsUnread'], { list: list('lessons', preview.lessonsUnread) }));
  for (const q of preview.quizzes) {
    lines.push(
      fill(s['progress.importQuiz'], {
        title: title('quizzes', q.id),
        from: q.from ? `${q.from.score}/${q.from.total}` : s['progress.none']!,
        to: `${q.to.score}/${q.to.total}`,
      }),
    );
  }
  for (const e of preview.exercises) {
    lines.push(
      fill(s['progress.importExercise'], {
        title: title('exercises', e.id),
        state: s[e.toPassed ? 'progress.lessonDone' : 'progress.lessonNotDone']!,
        attempts: e.attempts,
      }),
    );
  }
  if (preview.codeAdded.length) lines.push(fill(s['progress.importCodeAdded'], { list: list('exercises', preview.codeAdded) }));
  if (preview.codeReplaced.length) lines.push(fill(s['progress.importCodeReplaced'], { list: list('exercises', preview.codeReplaced) }));
  return lines;
}

export function enhanceProgressPage() {
  const root = document.querySelector<HTMLElement>('[data-progress-page]');
  if (!root) return;
  const s = readStrings(root);
  const catalog = JSON.parse(root.querySelector('script[data-catalog]')!.textContent!) as Catalog;
  const { store, storage } = pageProgress();
  const exerciseIds = catalog.modules.flatMap((m) => m.exercises.map((e) => e.id));
  const localCode = (): SavedCodeMap => savedCodeOf(exerciseIds);

  paint(root, catalog, store.progress, s);
  store.subscribe((p) => paint(root, catalog, p, s));

  const transfer = root.querySelector<HTMLElement>('[data-transfer]')!;
  transfer.hidden = false;
  const exportStatus = transfer.querySelector<HTMLElement>('[data-export-status]')!;
  transfer.querySelector('[data-export]')!.addEventListener('click', () => {
    exportStatus.textContent = fill(s['progress.exported'], { file: downloadProgress(exerciseIds) });
  });

  const input = transfer.querySelector<HTMLInputElement>('[data-import-file]')!;
  const error = transfer.querySelector<HTMLElement>('[data-import-error]')!;
  const box = transfer.querySelector<HTMLElement>('[data-import-preview]')!;
  const status = transfer.querySelector<HTMLElement>('[data-import-status]')!;
  let pending: ProgressFile | undefined;

  const closePreview = () => {
    box.hidden = true;
    pending = undefined;
    input.value = '';
  };

  input.addEventListener('change', async () => {
    error.textContent = '';
    status.textContent = '';
    box.hidden = true;
    pending = undefined;
    const file = input.files?.[0];
    if (!file) return;
    let text: string;
    try {
      text = await file.text();
    } catch {
      error.textContent = s['progress.errorRead']!;
      return;
    }
    const parsed = parseProgressFile(text);
    if (!parsed.ok) {
      error.textContent = problemText(parsed.problem, s);
      input.value = '';
      return;
    }
    const result = previewImport(store.progress, localCode(), parsed.file);
    if (result.preview.unchanged) {
      status.textContent = s['progress.importNothing']!;
      input.value = '';
      return;
    }
    pending = parsed.file;
    const title = box.querySelector<HTMLElement>('[data-preview-title]')!;
    title.textContent = fill(s['progress.importPreviewTitle'], { file: file.name });
    const list = box.querySelector<HTMLElement>('[data-preview-list]')!;
    list.replaceChildren(...previewLines(result.preview, catalog, s).map((line) => Object.assign(document.createElement('li'), { textContent: line })));
    box.querySelector<HTMLElement>('[data-import-code-warning]')!.hidden = !bringsCode(result.preview);
    box.hidden = false;
    title.focus();
  });

  box.querySelector('[data-import-apply]')!.addEventListener('click', () => {
    if (!pending) return;
    // Merge again with what is stored now, in case another tab changed something meanwhile.
    store.reload();
    const { progress, code, preview } = previewImport(store.progress, localCode(), pending);
    try {
      for (const id of [...preview.codeAdded, ...preview.codeReplaced]) storage.setItem(savedCodeKey(id), JSON.stringify(code[id]));
    } catch {
      error.textContent = s['progress.errorRead']!;
      return;
    }
    store.replace(progress);
    closePreview();
    status.textContent = s['progress.importDone']!;
    input.focus();
  });
  box.querySelector('[data-import-cancel]')!.addEventListener('click', () => {
    closePreview();
    status.textContent = s['progress.importCancelled']!;
    input.focus();
  });
}
