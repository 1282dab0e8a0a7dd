/**
 * The instructor page: keeps module and item checkboxes in step, validates the form, and turns it into
 * an assignment (schema-checked) with a link and a downloadable file.
 */
import { downloadText } from '../progress/download.ts';
import { fill, readStrings } from '../progress/strings.ts';
import { elementLang } from '../i18n/element-lang.ts';
import { localTimeZone, formatDue, zonedTimeToIso } from './due.ts';
import { ASSIGNMENT_FORMAT, assignmentSchema, FORMAT_VERSION, isTimeZone, type Assignment } from './file-schemas.ts';
import { assignmentLink } from './link.ts';

function newAssignmentId(now: Date): string {
  const random = [...crypto.getRandomValues(new Uint8Array(4))]
    .map((b) => b.toString(36).padStart(2, '0'))
    .join('')
    .slice(0, 6);
  return `asg-${now.toISOString().slice(0, 10).replace(/-/g, '')}-${random}`;
}

/** A module box is checked when all its exercises and its module quiz are, mixed when only some are. */
function syncModuleBox(group: HTMLElement) {
  const all = group.querySelector<HTMLInputElement>('[data-module-all]')!;
  const items = [...group.querySelectorAll<HTMLInputElement>('input[data-in-module]')];
  const checked = items.filter((i) => i.checked).length;
  all.checked = items.length > 0 && checked === items.length;
  all.indeterminate = checked > 0 && checked < items.length;
}

export function enhanceInstructorPage() {
  const root = document.querySelector<HTMLElement>('[data-instructor-page]');
  if (!root) return;
  const s = readStrings(root);
  const lang = elementLang(root);
  const form = root.querySelector<HTMLFormElement>('[data-assignment-form]')!;
  const zone = form.querySelector<HTMLSelectElement>('#asg-zone')!;
  const mine = localTimeZone();
  if (![...zone.options].some((o) => o.value === mine)) zone.add(new Option(mine, mine), 0);
  zone.value = mine;

  for (const group of form.querySelectorAll<HTMLElement>('[data-module-choice]')) {
    group.addEventListener('change', (event) => {
      const target = event.target as HTMLInputElement;
      if (target.matches('[data-module-all]')) {
        for (const item of group.querySelectorAll<HTMLInputElement>('input[data-in-module]')) item.checked = target.checked;
      }
      syncModuleBox(group);
    });
  }

  const result = root.querySelector<HTMLElement>('[data-assignment-result]')!;
  const summary = form.querySelector<HTMLElement>('[data-error-summary]')!;
  let current: Assignment | undefined;

  const setError = (field: string, message: string, control?: HTMLElement | null) => {
    form.querySelector<HTMLElement>(`[data-error-for="${field}"]`)!.textContent = message;
    if (control) control.setAttribute('aria-invalid', message ? 'true' : 'false');
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const title = String(data.get('title') ?? '').trim();
    const className = String(data.get('className') ?? '').trim();
    const timeZone = zone.value;
    const due = zonedTimeToIso(String(data.get('due') ?? ''), timeZone);
    const exercises = data.getAll('exercise').map(String);
    const quizzes = data.getAll('quiz').map(String);
    const errors: [string, string, HTMLElement | null][] = [
      ['title', title ? '' : s['instructor.errorTitle']!, form.querySelector('#asg-title')],
      ['className', className ? '' : s['instructor.errorClass']!, form.querySelector('#asg-class')],
      ['due', due ? '' : s['instructor.errorDue']!, form.querySelector('#asg-due')],
      ['timeZone', isTimeZone(timeZone) ? '' : s['instructor.errorZone']!, zone],
      ['items', exercises.length + quizzes.length ? '' : s['instructor.errorItems']!, null],
    ];
    for (const [field, message, control] of errors) setError(field, message, control);
    const firstBad = errors.find(([, message]) => message);
    if (firstBad) {
      summary.textContent = s['instructor.errorSummary']!;
      result.hidden = true;
      (firstBad[2] ?? form.querySelector<HTMLElement>('input[name="module"]'))?.focus();
      return;
    }
    summary.textContent = '';
    const now = new Date();
    current = assignmentSchema.parse({
      format: ASSIGNMENT_FORMAT,
      version: FORMAT_VERSION,
      id: newAssignmentId(now),
      title,
      className,
      due,
      timeZone,
      modules: data.getAll('module').map(String),
      exercises,
      quizzes,
      createdAt: now.toISOString(),
    });
    root.querySelector<HTMLInputElement>('[data-result-link]')!.value = assignmentLink(location.origin, lang, current);
    root.querySelector('[data-result-summary]')!.textContent = fill(s['instructor.resultSummary'], {
      exercises: exercises.length,
      quizzes: quizzes.length,
      when: formatDue(current.due, lang, timeZone),
    });
    root.querySelector('[data-grade-command]')!.textContent = `npm run grade-class -- --assignment ${current.id}.json --submissions submissions/`;
    root.querySelector('[data-result-status]')!.textContent = '';
    result.hidden = false;
    root.querySelector<HTMLElement>('#asg-result-title')!.focus();
  });

  root.querySelector('[data-copy-link]')!.addEventListener('click', async () => {
    const link = root.querySelector<HTMLInputElement>('[data-result-link]')!;
    const status = root.querySelector<HTMLElement>('[data-result-status]')!;
    try {
      await navigator.clipboard.writeText(link.value);
      status.textContent = s['instructor.copied']!;
    } catch {
      link.select();
      status.textContent = s['instructor.copyFailed']!;
    }
  });
  root.querySelector('[data-download-assignment]')!.addEventListener('click', () => {
    if (current) downloadText(`${current.id}.json`, JSON.stringify(current, null, 2));
  });
}
