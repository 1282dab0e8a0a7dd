import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../storage/key-value-store.ts';
import { ProgressStore } from '../progress/store.ts';
import { emptyProgress, MAX_REMEMBERED_ASSIGNMENTS, progressSchema } from '../progress/schema.ts';
import { mergeProgress } from '../progress/transfer.ts';
import type { Assignment } from './file-schemas.ts';
import { encodeAssignment } from './link.ts';
import { assignmentPageHref, assignmentsWith, handInHref, itemsDone, openedAssignments, wantsHandIn } from './remembered.ts';

const base: Assignment = {
  format: 'course-assignment',
  version: 1,
  id: 'week-3',
  title: 'Tuần 3: retry và deadline',
  className: 'Backend K12',
  due: '2026-12-08T23:59:00+07:00',
  timeZone: 'Asia/Ho_Chi_Minh',
  modules: ['deadlines'],
  exercises: ['deadline-middleware', 'retry-helper'],
  quizzes: ['deadlines-quiz'],
  createdAt: '2026-11-29T10:00:00.000Z',
};
const week4: Assignment = { ...base, id: 'week-4', title: 'Tuần 4', due: '2026-12-01T23:59:00+07:00', exercises: ['backoff'], quizzes: [] };
const clock = (iso: string) => () => new Date(iso);

describe('remembered assignments', () => {
  it('are kept beside progress when opened, listed soonest due first, and survive a reload', () => {
    const s = new MemoryStore();
    const store = new ProgressStore(s, clock('2026-12-01T08:00:00.000Z'));
    store.rememberAssignment(base.id, encodeAssignment(base));
    store.rememberAssignment(week4.id, encodeAssignment(week4));
    const again = new ProgressStore(s);
    expect(progressSchema.safeParse(again.progress).success).toBe(true);
    expect(openedAssignments(again.progress).map((o) => o.assignment.id)).toEqual(['week-4', 'week-3']);
  });

  it('keep the first opening date when opened again, and drop one on "remove"', () => {
    const s = new MemoryStore();
    new ProgressStore(s, clock('2026-12-01T08:00:00.000Z')).rememberAssignment(base.id, encodeAssignment(base));
    const later = new ProgressStore(s, clock('2026-12-05T08:00:00.000Z'));
    later.rememberAssignment(base.id, encodeAssignment({ ...base, title: 'Tuần 3 (sửa)' }));
    expect(later.progress.assignments?.[base.id]?.openedAt).toBe('2026-12-01T08:00:00.000Z');
    expect(openedAssignments(later.progress)[0]!.assignment.title).toBe('Tuần 3 (sửa)');
    later.forgetAssignment(base.id);
    expect(openedAssignments(new ProgressStore(s).progress)).toEqual([]);
  });

  it('refuse what is not an assignment link, and forget the oldest past the cap', () => {
    const store = new ProgressStore(new MemoryStore());
    store.rememberAssignment('../evil', encodeAssignment(base));
    store.rememberAssignment(base.id, 'a=not base64!');
    store.rememberAssignment(base.id, `a=${'A'.repeat(40_000)}`);
    expect(store.progress.assignments).toBeUndefined();
    let minute = 0;
    const busy = new ProgressStore(new MemoryStore(), () => new Date(Date.UTC(2026, 11, 1, 0, minute++)));
    for (let i = 0; i <= MAX_REMEMBERED_ASSIGNMENTS; i++) busy.rememberAssignment(`a${i}`, encodeAssignment({ ...base, id: `a${i}` }));
    const ids = Object.keys(busy.progress.assignments ?? {});
    expect(ids).toHaveLength(MAX_REMEMBERED_ASSIGNMENTS);
    expect(ids).not.toContain('a0');
  });

  it('drop a stored link that no longer decodes, or decodes to another id, instead of breaking the page', () => {
    const p = {
      ...emptyProgress(),
      assignments: {
        'week-3': { fragment: 'a=AAAA', openedAt: '2026-12-01T08:00:00.000Z' },
        other: { fragment: encodeAssignment(base), openedAt: '2026-12-01T08:00:00.000Z' },
      },
    };
    expect(openedAssignments(p)).toEqual([]);
  });

  it('say which assignments hold an item and how many of an assignment’s items are done', () => {
    const store = new ProgressStore(new MemoryStore());
    store.rememberAssignment(base.id, encodeAssignment(base));
    store.rememberAssignment(week4.id, encodeAssignment(week4));
    store.recordExercise({ exerciseId: 'retry-helper', status: 'pass', passed: 53, total: 53, runner: 'worker' });
    store.recordExercise({ exerciseId: 'deadline-middleware', status: 'fail', passed: 3, total: 40, runner: 'worker' });
    expect(assignmentsWith(store.progress, 'exercises', 'retry-helper').map((o) => o.assignment.id)).toEqual(['week-3']);
    expect(assignmentsWith(store.progress, 'quizzes', 'deadlines-quiz').map((o) => o.assignment.id)).toEqual(['week-3']);
    expect(assignmentsWith(store.progress, 'exercises', 'fan-out')).toEqual([]);
    expect(itemsDone(base, store.progress)).toEqual({ done: 1, total: 3 });
  });

  it('link back to the assignment page, and to its hand-in form', () => {
    const fragment = encodeAssignment(base);
    expect(assignmentPageHref('vi', fragment)).toBe(`/vi/assignment/#${fragment}`);
    const handIn = handInHref('en', fragment);
    expect(wantsHandIn(new URL(handIn, 'https://x.test').hash)).toBe(true);
    expect(wantsHandIn(`#${fragment}`)).toBe(false);
  });

  it('travel with an exported progress file, as do revealed solutions', () => {
    const here = { ...emptyProgress(), solutionsShown: { backoff: '2026-12-02T00:00:00.000Z' } };
    const there = {
      ...emptyProgress(),
      solutionsShown: { backoff: '2026-12-01T00:00:00.000Z', 'fan-out': '2026-12-03T00:00:00.000Z' },
      assignments: { 'week-3': { fragment: encodeAssignment(base), openedAt: '2026-12-01T08:00:00.000Z' } },
    };
    const merged = mergeProgress(here, there);
    expect(merged.solutionsShown).toEqual({ backoff: '2026-12-01T00:00:00.000Z', 'fan-out': '2026-12-03T00:00:00.000Z' });
    expect(openedAssignments(merged).map((o) => o.assignment.id)).toEqual(['week-3']);
  });
});
