/**
 * The assignments a learner has opened, read back from progress: each stored link fragment decoded
 * again (so a damaged one drops out instead of breaking the page), soonest due first. The assignment
 * page, the progress page and the banners on assigned items all read them through here. Pure.
 */
import type { Progress } from '../progress/schema.ts';
import type { Assignment } from './file-schemas.ts';
import { decodeAssignment } from './link.ts';

export interface OpenedAssignment {
  assignment: Assignment;
  /** The link's fragment (`a=…`): the way back to the assignment page. */
  fragment: string;
  openedAt: string;
}

export function openedAssignments(progress: Progress): OpenedAssignment[] {
  return Object.entries(progress.assignments ?? {})
    .flatMap(([id, entry]) => {
      const decoded = decodeAssignment(entry.fragment);
      return decoded.ok && decoded.assignment.id === id ? [{ assignment: decoded.assignment, fragment: entry.fragment, openedAt: entry.openedAt }] : [];
    })
    .sort((a, b) => Date.parse(a.assignment.due) - Date.parse(b.assignment.due) || a.assignment.title.localeCompare(b.assignment.title));
}

/** The opened assignments that include this exercise, quiz or lab. */
export function assignmentsWith(progress: Progress, kind: 'exercises' | 'quizzes' | 'labs', itemId: string): OpenedAssignment[] {
  return openedAssignments(progress).filter((o) => (o.assignment[kind] ?? []).includes(itemId));
}

/** The assignment page for one remembered assignment, in the page's language. */
export const assignmentPageHref = (lang: string, fragment: string) => `/${lang}/assignment/#${fragment}`;

/** The same page, scrolled to its hand-in form (`to=` beside `a=` in the fragment). */
export const handInHref = (lang: string, fragment: string) => `${assignmentPageHref(lang, fragment)}&to=${HAND_IN_ID}`;

/** The id of the hand-in section on the assignment page. */
export const HAND_IN_ID = 'hand-in';

/** Whether a fragment asks for the hand-in form. */
export const wantsHandIn = (fragment: string) => new URLSearchParams(fragment.replace(/^#/, '')).get('to') === HAND_IN_ID;

/** How many of an assignment's items are done: exercises passed in the browser, quizzes taken. */
export function itemsDone(a: Assignment, progress: Progress): { done: number; total: number } {
  const done = a.exercises.filter((id) => progress.exercises[id]?.passed).length + a.quizzes.filter((id) => progress.quizzes[id]).length;
  return { done, total: a.exercises.length + a.quizzes.length };
}
