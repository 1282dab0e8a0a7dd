import { describe, expect, it } from 'vitest';
import { buildOutline, neighbours, translatedHref } from './outline.ts';
import type { CourseModule, LessonData } from './schema.ts';

const modules: CourseModule[] = [
  {
    id: 'b-mod',
    order: 2,
    title: { vi: 'Hai', en: 'Two' },
    summary: { vi: 'Thứ hai', en: 'Second' },
    learn: { vi: 'Học phần hai', en: 'Learn two' },
    topic: { vi: 'hai', en: 'two' },
  },
  {
    id: 'a-mod',
    order: 1,
    title: { vi: 'Một', en: 'One' },
    summary: { vi: 'Thứ nhất', en: 'First' },
    learn: { vi: 'Học phần một', en: 'Learn one' },
    topic: { vi: 'một', en: 'one' },
  },
];
const lesson = (id: string, order: number, lang: 'vi' | 'en', module: string) => ({
  id,
  data: {
    title: id,
    description: 'a description long enough',
    module,
    order,
    lang,
    minutes: 10,
    exercises: [],
    quizzes: [],
    labs: [],
  } satisfies LessonData,
});
const lessons = [
  lesson('en/b-mod/third', 1, 'en', 'b-mod'),
  lesson('en/a-mod/second', 2, 'en', 'a-mod'),
  lesson('en/a-mod/first', 1, 'en', 'a-mod'),
  lesson('vi/a-mod/first', 1, 'vi', 'a-mod'),
];

describe('course outline', () => {
  const outline = buildOutline('en', modules, lessons);

  it('orders modules and lessons by their order fields, in one language only', () => {
    expect(outline.modules.map((m) => m.id)).toEqual(['a-mod', 'b-mod']);
    expect(outline.lessons.map((l) => l.lessonId)).toEqual(['a-mod/first', 'a-mod/second', 'b-mod/third']);
    expect(outline.modules[0]!.title).toBe('One');
    expect(outline.modules[0]!.minutes).toBe(20);
  });

  it('links previous and next across module boundaries', () => {
    const { previous, next } = neighbours(outline, 'a-mod/second');
    expect(previous?.href).toBe('/en/a-mod/first/');
    expect(next?.href).toBe('/en/b-mod/third/');
    expect(neighbours(outline, 'a-mod/first').previous).toBeUndefined();
    expect(neighbours(outline, 'b-mod/third').next).toBeUndefined();
  });

  it('switches language to the same page, or to the home page when it has no translation', () => {
    const existing = new Set(['/vi/a-mod/first/', '/vi/']);
    expect(translatedHref('/en/a-mod/first/', 'vi', existing)).toBe('/vi/a-mod/first/');
    expect(translatedHref('/en/b-mod/third/', 'vi', existing)).toBe('/vi/');
  });
});
