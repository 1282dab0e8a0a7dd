/**
 * The instructor page: keeps module and item checkboxes in step, validates the form, and turns it into
 * an assignment (schema-checked) with a link and a downloadable file.
 */
import { downloadText } from '../progress/download.ts';
import { fill, readStrings } from '../progress/strings.ts';
import { elementLang } from '../i18n/index.ts';
import { localTimeZone, formatDue, zonedTimeToIso } from './due.ts';
import { ASSIGNMENT_FORMAT, assignmentSchema, FORMAT_VERSION, isTimeZone, type Assignment, type LatePolicy } from './file-schemas.ts';
import { possiblePoints } from './grading-model.ts';
import { assignmentLink, isLocalHost, siteOrigin } from './link.ts';

/** A number field: undefined when empty, NaN when not a number. */
const numberField = (value: FormDataEntryValue | null) => (value === null || String(value).trim() === '' ? undefined : Number(value));

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
  const site = form.querySelector<HTMLInputElement>('[data-site-address]')!;
  site.value = location.origin;
  root.querySelector<HTMLElement>('[data-localhost-warning]')!.hidden = !isLocalHost(location.hostname);
  const lateEnabled = form.querySelector<HTMLInputElement>('[data-late-enabled]')!;
  const lateInputs = [...form.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-late-fields] input, [data-late-fields] select')];
  const syncLate = () => {
    for (const input of lateInputs) input.disabled = !lateEnabled.checked;
  };
  lateEnabled.addEventListener('change', syncLate);
  syncLate();
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
    const lessons = data.getAll('lesson').map(String);
    const labs = data.getAll('lab').map(String);
    const origin = siteOrigin(site.value);
    // Points only for the items chosen; an empty field is the default.
    const points: Record<string, number> = {};
    let badPoints: HTMLElement | null = null;
    for (const id of [...exercises, ...quizzes]) {
      const value = numberField(data.get(`points:${id}`));
      if (value === undefined) continue;
      if (Number.isFinite(value) && value > 0 && value <= 1000) points[id] = value;
      else badPoints ??= form.querySelector<HTMLElement>(`[name="points:${CSS.escape(id)}"]`);
    }
    let latePolicy: LatePolicy | undefined;
    const lateErrors: [string, string, HTMLElement | null][] = [];
    if (lateEnabled.checked) {
      const grace = numberField(data.get('graceHours')) ?? 0;
      const penalty = numberField(data.get('penaltyPercent')) ?? 0;
      const floor = numberField(data.get('floorPercent')) ?? 0;
      const cutoffText = String(data.get('cutoff') ?? '');
      const cutoff = cutoffText ? zonedTimeToIso(cutoffText, timeZone) : undefined;
      const percent = (x: number) => Number.isFinite(x) && x >= 0 && x <= 100;
      lateErrors.push(
        ['graceHours', Number.isFinite(grace) && grace >= 0 && grace <= 720 ? '' : s['instructor.errorGrace']!, form.querySelector('#asg-grace')],
        ['penaltyPercent', percent(penalty) ? '' : s['instructor.errorPercent']!, form.querySelector('#asg-penalty')],
        ['floorPercent', percent(floor) ? '' : s['instructor.errorPercent']!, form.querySelector('#asg-floor')],
        [
          'cutoff',
          cutoffText && (!cutoff || (due && Date.parse(cutoff) < Date.parse(due))) ? s['instructor.errorCutoff']! : '',
          form.querySelector('#asg-cutoff'),
        ],
      );
      latePolicy = {
        graceMinutes: Math.round(grace * 60),
        penaltyPercent: penalty,
        per: String(data.get('per')) === 'hour' ? 'hour' : 'day',
        floorPercent: floor,
        ...(cutoff ? { cutoff } : {}),
      };
    }
    const errors: [string, string, HTMLElement | null][] = [
      ['site', origin ? '' : s['instructor.errorSite']!, site],
      ['title', title ? '' : s['instructor.errorTitle']!, form.querySelector('#asg-title')],
      ['className', className ? '' : s['instructor.errorClass']!, form.querySelector('#asg-class')],
      ['due', due ? '' : s['instructor.errorDue']!, form.querySelector('#asg-due')],
      ['timeZone', isTimeZone(timeZone) ? '' : s['instructor.errorZone']!, zone],
      ['items', exercises.length + quizzes.length + lessons.length + labs.length ? '' : s['instructor.errorItems']!, null],
      ['points', badPoints ? s['instructor.errorPoints']! : '', badPoints],
      ...lateErrors,
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
      ...(lessons.length ? { lessons } : {}),
      ...(labs.length ? { labs } : {}),
      ...(Object.keys(points).length ? { points } : {}),
      ...(latePolicy ? { latePolicy } : {}),
    });
    root.querySelector<HTMLInputElement>('[data-result-link]')!.value = assignmentLink(origin!, lang, current);
    root.querySelector('[data-result-summary]')!.textContent = `${fill(s['instructor.resultSummary'], {
      exercises: exercises.length,
      quizzes: quizzes.length,
      when: formatDue(current.due, lang, timeZone),
    })} ${fill(s['instructor.resultPoints'], { points: possiblePoints(current) })}`;
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
