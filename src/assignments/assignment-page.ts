/**
 * The learner's view of an assignment: decodes the link, shows due dates (the learner's zone and the
 * instructor's), the status of each item from the learner's progress, and exports the submission.
 */
import { loadSavedCode } from '../storage/saved-code.ts';
import { pageProgress } from '../progress/browser-store.ts';
import { findItem, type Catalog, type CatalogExercise } from '../progress/catalog.ts';
import { downloadText } from '../progress/download.ts';
import type { Progress } from '../progress/schema.ts';
import { fill, readStrings, type Strings } from '../progress/strings.ts';
import { elementLang } from '../i18n/index.ts';
import { formatDue, isLate } from './due.ts';
import { learnerSchema, type Assignment } from './file-schemas.ts';
import { decodeAssignment } from './link.ts';
import { mountOpenedAssignments } from './opened-list.ts';
import { HAND_IN_ID, wantsHandIn } from './remembered.ts';
import { buildSubmission, itemsWithoutWork, submissionFileNameFor } from './submission.ts';

function itemRows(a: Assignment, catalog: Catalog, p: Progress, storage: Parameters<typeof loadSavedCode>[0], s: Strings): HTMLTableRowElement[] {
  const row = (kind: string, title: string, href: string | undefined, status: string, state: string) => {
    const tr = document.createElement('tr');
    const item = document.createElement('td');
    const label = Object.assign(document.createElement('span'), { className: 'kind', textContent: kind });
    const name = href ? Object.assign(document.createElement('a'), { href, textContent: title }) : document.createTextNode(title);
    item.append(label, ' ', name); // the label is a line of its own; the space keeps the words apart when read
    const cell = Object.assign(document.createElement('td'), { textContent: status });
    cell.dataset.state = state;
    tr.append(item, cell);
    return tr;
  };
  const rows: HTMLTableRowElement[] = [];
  for (const id of a.exercises) {
    const meta = findItem(catalog, 'exercises', id);
    const code = loadSavedCode(storage, id);
    const result = p.exercises[id];
    const [status, state] = !code
      ? [s['assignment.statusNoCode']!, 'missing']
      : result?.passed
        ? [fill(s['assignment.statusPassed'], { passed: result.best.passed, total: result.best.total }), 'done']
        : [s['assignment.statusSaved']!, 'saved'];
    const shown = p.solutionsShown?.[id] ? fill(s['assignment.solutionShown'], { status }) : status;
    rows.push(
      row(s['assignment.kindExercise']!, meta?.title ?? fill(s['assignment.unknownItem'], { id }), meta && `${meta.href}#exercise-${id}-title`, shown, state),
    );
  }
  for (const id of a.quizzes) {
    const meta = findItem(catalog, 'quizzes', id);
    const q = p.quizzes[id];
    const [status, state] = q
      ? [fill(s['assignment.statusQuiz'], { score: q.best.score, total: q.best.total }), 'done']
      : [s['assignment.statusQuizNone']!, 'missing'];
    rows.push(row(s['assignment.kindQuiz']!, meta?.title ?? fill(s['assignment.unknownItem'], { id }), meta && `${meta.href}#quiz-${id}-title`, status, state));
  }
  // Lessons to read: done when the learner's progress says read (marked, or read to the end).
  for (const id of a.lessons ?? []) {
    const meta = catalog.modules.flatMap((m) => m.lessons).find((l) => l.id === id);
    const [status, state] = p.lessons[id]?.read ? [s['assignment.statusRead']!, 'done'] : [s['assignment.statusUnread']!, 'missing'];
    rows.push(row(s['assignment.kindLesson']!, meta?.title ?? fill(s['assignment.unknownItem'], { id }), meta?.href, status, state));
  }
  // Labs to open: done once the learner used the lab (or came by a link to it).
  for (const id of a.labs ?? []) {
    const meta = catalog.modules.flatMap((m) => m.labs).find((l) => l.id === id);
    const [status, state] = p.labs[id] ? [s['assignment.statusLabOpened']!, 'done'] : [s['assignment.statusLabUnopened']!, 'missing'];
    rows.push(row(s['assignment.kindLab']!, meta?.title ?? fill(s['assignment.unknownItem'], { id }), meta?.href, status, state));
  }
  return rows;
}

export function enhanceAssignmentPage() {
  const root = document.querySelector<HTMLElement>('[data-assignment-page]');
  if (!root) return;
  const s = readStrings(root);
  const lang = elementLang(root);
  const catalog = JSON.parse(root.querySelector('script[data-catalog]')!.textContent!) as Catalog;
  const problem = root.querySelector<HTMLElement>('[data-assignment-problem]')!;
  const body = root.querySelector<HTMLElement>('[data-assignment-body]')!;
  const { store, storage } = pageProgress();

  // The language switch keeps the assignment: it lives in the fragment, which a plain link drops.
  const keepFragment = () => {
    for (const link of document.querySelectorAll<HTMLAnchorElement>('a.lang-switch')) link.hash = location.hash;
  };

  const opened = root.querySelector<HTMLElement>('[data-opened-assignments]')!;
  const show = () => {
    keepFragment();
    const decoded = decodeAssignment(location.hash);
    if (!decoded.ok) {
      // Without a link (the learner came back later): the assignments opened before, if any.
      const remembered = mountOpenedAssignments();
      const key = decoded.reason !== 'missing' ? 'assignment.invalid' : remembered ? 'assignment.missingRemembered' : 'assignment.missing';
      problem.textContent = s[key]!;
      opened.hidden = remembered === 0;
      body.hidden = true;
      return;
    }
    const a = decoded.assignment;
    problem.textContent = '';
    opened.hidden = true;
    body.hidden = false;
    // Remembered beside progress, so the learner finds it again without the link.
    store.rememberAssignment(a.id, `a=${new URLSearchParams(location.hash.slice(1)).get('a')}`);
    root.querySelector('[data-assignment-title]')!.textContent = a.title;
    document.title = `${a.title} · ${document.title.split(' · ').pop()}`;
    root.querySelector('[data-assignment-class]')!.textContent = fill(s['assignment.class'], { name: a.className });
    root.querySelector('[data-due-local]')!.textContent = fill(s['assignment.dueLocal'], { when: formatDue(a.due, lang) });
    root.querySelector('[data-due-instructor]')!.textContent = fill(s['assignment.dueInstructor'], { when: formatDue(a.due, lang, a.timeZone) });
    const late = isLate(a.due, new Date());
    const state = root.querySelector<HTMLElement>('[data-due-state]')!;
    state.dataset.late = String(late);
    state.textContent = s[late ? 'assignment.late' : 'assignment.onTime']!;

    const paint = (p: Progress) => {
      root.querySelector('[data-assignment-items]')!.replaceChildren(...itemRows(a, catalog, p, storage, s));
      const missing = itemsWithoutWork(a, p, (id) => loadSavedCode(storage, id));
      const names = [
        ...missing.exercises.map((id) => findItem(catalog, 'exercises', id)?.title ?? id),
        ...missing.quizzes.map((id) => findItem(catalog, 'quizzes', id)?.title ?? id),
      ];
      const warning = root.querySelector<HTMLElement>('[data-missing-warning]')!;
      warning.hidden = names.length === 0;
      warning.textContent = names.length ? fill(s['assignment.warnMissing'], { list: names.join('; ') }) : '';
    };
    paint(store.progress);
    store.subscribe(paint);
    form.onsubmit = (event) => {
      event.preventDefault();
      exportSubmission(a);
    };
    // "Hand in" from a banner on an assigned item: straight to the form.
    if (wantsHandIn(location.hash)) {
      document.getElementById(HAND_IN_ID)?.scrollIntoView({ block: 'start' });
      nameInput.focus({ preventScroll: true });
    }
  };

  const form = root.querySelector<HTMLFormElement>('[data-submission-form]')!;
  const nameInput = form.querySelector<HTMLInputElement>('#learner-name')!;
  const emailInput = form.querySelector<HTMLInputElement>('#learner-email')!;
  const givenInput = form.querySelector<HTMLInputElement>('#learner-given')!;
  const familyInput = form.querySelector<HTMLInputElement>('#learner-family')!;
  const studentIdInput = form.querySelector<HTMLInputElement>('#learner-student-id')!;
  const status = form.querySelector<HTMLElement>('[data-export-status]')!;

  const exportSubmission = (a: Assignment) => {
    status.textContent = '';
    // Given and family name as typed (Google Classroom's First/Last Name: never split from the full
    // name), and the school's student id; each left out of the file when empty.
    const optional = (key: string, input: HTMLInputElement) => (input.value.trim() ? { [key]: input.value.trim() } : {});
    const learner = {
      name: nameInput.value.trim(),
      email: emailInput.value.trim(),
      ...optional('givenName', givenInput),
      ...optional('familyName', familyInput),
      ...optional('studentId', studentIdInput),
    };
    const checked = learnerSchema.safeParse(learner);
    const bad = new Set(checked.success ? [] : checked.error.issues.map((i) => String(i.path[0])));
    const fields: [string, HTMLInputElement, string][] = [
      ['name', nameInput, s['assignment.nameError']!],
      ['familyName', familyInput, s['assignment.namePartError']!],
      ['givenName', givenInput, s['assignment.namePartError']!],
      ['email', emailInput, s['assignment.emailError']!],
      ['studentId', studentIdInput, s['assignment.studentIdError']!],
    ];
    for (const [field, input, message] of fields) {
      form.querySelector<HTMLElement>(`[data-error-for="${field}"]`)!.textContent = bad.has(field) ? message : '';
      input.setAttribute('aria-invalid', String(bad.has(field)));
    }
    const firstBad = fields.find(([field]) => bad.has(field));
    if (firstBad) {
      firstBad[1].focus();
      return;
    }
    const exerciseFiles = Object.fromEntries(
      a.exercises.flatMap((id) => {
        const meta = findItem(catalog, 'exercises', id) as CatalogExercise | undefined;
        return meta ? [[id, meta.files]] : [];
      }),
    );
    const built = buildSubmission({
      assignment: a,
      learner,
      progress: store.progress,
      savedCode: (id) => loadSavedCode(storage, id),
      exerciseFiles,
      courseVersion: root.dataset.courseVersion ?? 'unknown',
      lang,
    });
    if (built.tooBig) {
      status.textContent = s['assignment.tooBig']!;
      return;
    }
    const file = submissionFileNameFor(a.id, built.submission.learner);
    downloadText(file, built.json);
    status.textContent = fill(s['assignment.exported'], { file });
  };

  show();
  addEventListener('hashchange', show);
}
