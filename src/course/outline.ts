/**
 * The course outline for one language: modules in order, each with its lessons in order, and the
 * links between them (previous/next, the same lesson in the other language). Pure: built from plain
 * data so it can be tested without Astro.
 */
import type { Lang } from '../i18n/index.ts';
import { splitEntryId, type CourseModule, type LessonData } from './schema.ts';

export interface LessonRef {
  lessonId: string;
  entryId: string;
  module: string;
  slug: string;
  title: string;
  description: string;
  minutes: number;
  order: number;
  href: string;
}

export interface ModuleOutline {
  id: string;
  order: number;
  title: string;
  summary: string;
  /** The module's line in "what you will learn". */
  learn: string;
  /** A few words for lists of what the course covers (the footer). */
  topic: string;
  href: string;
  lessons: LessonRef[];
  minutes: number;
}

export interface Outline {
  lang: Lang;
  modules: ModuleOutline[];
  /** Every lesson of the course in reading order. */
  lessons: LessonRef[];
}

export const homeHref = (lang: Lang) => `/${lang}/`;
export const moduleHref = (lang: Lang, module: string) => `/${lang}/${module}/`;
export const lessonHref = (lang: Lang, lessonId: string) => `/${lang}/${lessonId}/`;

export function buildOutline(lang: Lang, modules: CourseModule[], lessons: { id: string; data: LessonData }[]): Outline {
  const mine = lessons
    .filter((l) => l.data.lang === lang)
    .map((l): LessonRef => {
      const { lessonId, module, slug } = splitEntryId(l.id);
      return {
        lessonId,
        entryId: l.id,
        module,
        slug,
        title: l.data.title,
        description: l.data.description,
        minutes: l.data.minutes,
        order: l.data.order,
        href: lessonHref(lang, lessonId),
      };
    });
  const outlined = [...modules]
    .sort((a, b) => a.order - b.order)
    .map((m): ModuleOutline => {
      const moduleLessons = mine.filter((l) => l.module === m.id).sort((a, b) => a.order - b.order);
      return {
        id: m.id,
        order: m.order,
        title: m.title[lang],
        summary: m.summary[lang],
        learn: m.learn[lang],
        topic: m.topic[lang],
        href: moduleHref(lang, m.id),
        lessons: moduleLessons,
        minutes: moduleLessons.reduce((sum, l) => sum + l.minutes, 0),
      };
    });
  return { lang, modules: outlined, lessons: outlined.flatMap((m) => m.lessons) };
}

export function neighbours(outline: Outline, lessonId: string): { previous?: LessonRef; next?: LessonRef } {
  const at = outline.lessons.findIndex((l) => l.lessonId === lessonId);
  if (at < 0) return {};
  const previous = outline.lessons[at - 1];
  const next = outline.lessons[at + 1];
  return { ...(previous ? { previous } : {}), ...(next ? { next } : {}) };
}

/** The address of the same page in the other language; falls back to that language's home. */
export function translatedHref(path: string, to: Lang, existing: Set<string>): string {
  const swapped = path.replace(/^\/(vi|en)(?=\/|$)/, `/${to}`);
  return existing.has(swapped) ? swapped : homeHref(to);
}
