/**
 * On a lesson page: a line above each exercise, quiz and lab that belongs to an assignment the learner has
 * opened, saying which one and by when, with the way back to it and to its hand-in form. Reads the
 * assignments from progress, so it follows changes made in another tab.
 */
import { pageProgress } from '../progress/browser-store.ts';
import type { Progress } from '../progress/schema.ts';
import { fill, type Strings } from '../progress/strings.ts';
import { formatDue, isLate } from './due.ts';
import { assignmentPageHref, assignmentsWith, handInHref } from './remembered.ts';

const BANNER = 'data-assigned-banner';

type Kind = 'exercises' | 'quizzes' | 'labs';

function banner(progress: Progress, kind: Kind, id: string, lang: string, s: Strings): HTMLElement | undefined {
  const opened = assignmentsWith(progress, kind, id);
  if (!opened.length) return undefined;
  const box = document.createElement('div');
  box.className = 'assigned-banner';
  box.setAttribute(BANNER, '');
  for (const { assignment: a, fragment } of opened) {
    const line = document.createElement('p');
    const late = isLate(a.due, new Date());
    line.dataset.late = String(late);
    line.append(
      fill(s[late ? 'assignment.bannerLate' : 'assignment.banner'], { title: a.title, className: a.className, when: formatDue(a.due, lang) }),
      ' ',
      Object.assign(document.createElement('a'), { href: assignmentPageHref(lang, fragment), textContent: s['assignment.bannerOpen'] }),
      ' · ',
      Object.assign(document.createElement('a'), { href: handInHref(lang, fragment), textContent: s['assignment.bannerHandIn'] }),
    );
    box.append(line);
  }
  return box;
}

function paint(progress: Progress, lang: string, s: Strings) {
  const items: [Element, Kind, string | undefined][] = [
    ...[...document.querySelectorAll('section.embed-exercise[data-exercise]')].map((el): [Element, 'exercises', string | undefined] => [
      el,
      'exercises',
      (el as HTMLElement).dataset.exercise,
    ]),
    ...[...document.querySelectorAll('course-quiz[data-quiz-id]')].map((el): [Element, 'quizzes', string | undefined] => [
      el,
      'quizzes',
      (el as HTMLElement).dataset.quizId,
    ]),
    ...[...document.querySelectorAll('course-lab[data-sim]')].map((el): [Element, 'labs', string | undefined] => [el, 'labs', (el as HTMLElement).dataset.sim]),
  ];
  for (const [el, kind, id] of items) {
    const title = el.querySelector('h3');
    const old = el.querySelector(`[${BANNER}]`);
    const next = id && title ? banner(progress, kind, id, lang, s) : undefined;
    if (old && next && old.textContent === next.textContent) continue;
    old?.remove();
    if (next) title!.after(next);
  }
}

/** Paints the banners now and whenever progress changes; `s` holds the `assignment.banner*` strings. */
export function showAssignedBanners(s: Strings) {
  if (!document.querySelector('section.embed-exercise[data-exercise], course-quiz[data-quiz-id], course-lab[data-sim]')) return;
  const lang = document.documentElement.lang === 'en' ? 'en' : 'vi';
  const { store } = pageProgress();
  paint(store.progress, lang, s);
  store.subscribe((p) => paint(p, lang, s));
}
