import { describe, expect, it } from 'vitest';
import { summarizeCourse, summarizeModule, type CatalogModule } from './catalog.ts';
import { emptyProgress } from './schema.ts';

const module: CatalogModule = {
  id: 'timeouts',
  order: 1,
  title: 'Timeouts',
  href: '/en/timeouts/',
  lessons: ['a', 'b', 'c', 'd'].map((s) => ({ id: `timeouts/${s}`, title: s, href: '' })),
  quizzes: [
    { id: 'timeouts-a-check', title: '', href: '', questions: 3, moduleQuiz: false },
    { id: 'timeouts-quiz', title: '', href: '', questions: 8, moduleQuiz: true },
  ],
  exercises: [],
  labs: [],
};

describe('module summaries', () => {
  it('counts read lessons and shows the best module quiz score (3/4 lessons · quiz 7/8)', () => {
    const p = emptyProgress();
    for (const s of ['a', 'b', 'c']) p.lessons[`timeouts/${s}`] = { read: true, at: '2026-11-01T00:00:00Z', by: 'button' };
    p.lessons['timeouts/d'] = { read: false, at: '2026-11-01T00:00:00Z', by: 'button' };
    const attempt = { score: 7, total: 8, answers: {}, at: '2026-11-01T00:00:00Z' };
    p.quizzes['timeouts-quiz'] = { attempts: 1, best: attempt, last: attempt };
    expect(summarizeModule(module, p)).toEqual({
      lessonsRead: 3,
      lessonsTotal: 4,
      quiz: { score: 7, total: 8 },
      exercisesPassed: 0,
      exercisesTotal: 0,
      complete: false,
    });
    const course = summarizeCourse({ lang: 'en', modules: [module] }, p);
    expect(course).toMatchObject({ lessonsRead: 3, lessonsTotal: 4, quizzesTaken: 1, quizzesTotal: 2 });
  });
});
