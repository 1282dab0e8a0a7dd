/**
 * The list of assignments a learner has opened, each with its class, due date, how many of its items
 * are done and the way back to it; a learner can remove one. Shown on the progress page and on the
 * assignment page reached without a link. The container carries the `assignment.list*` strings.
 */
import { pageProgress } from '../progress/browser-store.ts';
import type { Progress } from '../progress/schema.ts';
import { fill, readStrings, type Strings } from '../progress/strings.ts';
import { formatDue, isLate } from './due.ts';
import { assignmentPageHref, itemsDone, openedAssignments } from './remembered.ts';

function render(container: HTMLElement, progress: Progress, lang: string, s: Strings, forget: (id: string) => void) {
  const opened = openedAssignments(progress);
  const list = document.createElement('ul');
  list.className = 'opened-assignments';
  for (const { assignment: a, fragment } of opened) {
    const li = document.createElement('li');
    li.dataset.assignmentId = a.id;
    const link = Object.assign(document.createElement('a'), { href: assignmentPageHref(lang, fragment), textContent: a.title });
    const { done, total } = itemsDone(a, progress);
    const late = isLate(a.due, new Date());
    const meta = Object.assign(document.createElement('span'), {
      className: 'meta',
      textContent: fill(s[late ? 'assignment.listLineLate' : 'assignment.listLine'], { className: a.className, when: formatDue(a.due, lang), done, total }),
    });
    const remove = Object.assign(document.createElement('button'), { type: 'button', className: 'button', textContent: s['assignment.listForget'] });
    remove.setAttribute('aria-label', fill(s['assignment.listForgetLabel'], { title: a.title }));
    remove.onclick = () => forget(a.id);
    li.append(link, ' ', meta, ' ', remove);
    list.append(li);
  }
  const empty = Object.assign(document.createElement('p'), { className: 'opened-none', textContent: s['assignment.listNone'] });
  container.querySelector('[data-opened-list]')!.replaceChildren(opened.length ? list : empty);
  container.dataset.count = String(opened.length);
}

/** Fills `[data-opened-assignments]` (if the page has one) and keeps it current. Returns how many are listed. */
export function mountOpenedAssignments(): number {
  const container = document.querySelector<HTMLElement>('[data-opened-assignments]');
  if (!container) return 0;
  const s = readStrings(container);
  const lang = document.documentElement.lang === 'en' ? 'en' : 'vi';
  const { store } = pageProgress();
  const draw = (p: Progress) => render(container, p, lang, s, (id) => store.forgetAssignment(id));
  draw(store.progress);
  store.subscribe(draw);
  return openedAssignments(store.progress).length;
}
